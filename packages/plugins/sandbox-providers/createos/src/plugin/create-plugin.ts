import type {
  PaperclipPlugin,
  PluginContext,
  PluginDefinition,
  PluginEnvironmentValidationResult,
} from "@paperclipai/plugin-sdk";
import { endHeldLeases } from "../lease/end-held-leases.js";
import { acquireLease, destroyLease, releaseLease } from "../lease/lease-lifecycle.js";
import { resumeLease } from "../lease/resume-lease.js";
import { DRIVER_KEY } from "../manifest.js";
import { syncIn } from "../sync/sync-in.js";
import { syncOut } from "../sync/sync-out.js";
import { executeCommand } from "./execute-command.js";
import { normalizedConfig, parseConfig } from "./plugin-config.js";
import { PluginRuntime, type PluginRuntimeOptions } from "./plugin-runtime.js";
import { probeEnvironment } from "./probe-environment.js";
import { realizeWorkspace } from "./realize-workspace.js";

export type CreatePluginOptions = PluginRuntimeOptions;

function validate(
  config: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): PluginEnvironmentValidationResult {
  const parsed = parseConfig(config, env);
  if (!parsed.ok) return { ok: false, errors: parsed.problems };
  return { ok: true, warnings: parsed.warnings, normalizedConfig: normalizedConfig(parsed.config, config) };
}

/**
 * A fresh plugin instance (its own pacers, lease registry and shutdown switch). The
 * default export of the package is one such instance; tests make their own.
 */
export function createPlugin(options: CreatePluginOptions = {}): PaperclipPlugin {
  const runtime = new PluginRuntime(options);
  let context: PluginContext | undefined;
  const definition: PluginDefinition = {
    async setup(ctx) {
      context = ctx;
      runtime.logger = ctx.logger;
    },
    async onHealth() {
      const unendedSandboxes = runtime.leases.unended;
      const details = {
        activeCommands: runtime.leases.activeCount(),
        blockedLeases: runtime.leases.blockedCount,
        unendedSandboxes,
      };
      if (runtime.signal.aborted) return { status: "error", message: "shutting down", details };
      if (unendedSandboxes.length > 0) {
        return {
          status: "degraded",
          message: `${unendedSandboxes.length} CreateOS sandbox(es) could not be ended and may still be running`,
          details,
        };
      }
      return { status: "ok", message: "ready", details };
    },
    async onShutdown() {
      await runtime.shutdown(() => endHeldLeases(runtime));
    },
    // No `onValidateConfig`: the plugin has no instance settings (all config is per
    // environment), and with it the host would offer a "Test configuration" button for the
    // plugin's settings that validated them as an environment config and always failed.
    onEnvironmentValidateConfig: async (params) => validate(params.config, runtime.env),
    onEnvironmentProbe: (params) => runtime.hook(() => probeEnvironment(runtime, params)),
    onEnvironmentAcquireLease: (params) => runtime.hook(() => acquireLease(runtime, params)),
    onEnvironmentResumeLease: (params) => runtime.hook(() => resumeLease(runtime, params)),
    onEnvironmentReleaseLease: (params) => runtime.hook(() => releaseLease(runtime, params)),
    onEnvironmentDestroyLease: (params) => runtime.hook(() => destroyLease(runtime, params)),
    onEnvironmentRealizeWorkspace: (params) => runtime.hook(() => realizeWorkspace(runtime, params)),
    onEnvironmentExecute: (params) =>
      runtime.hook(() =>
        executeCommand(runtime, params, (stream, text) => context?.execution.log(stream, text)),
      ),
    onEnvironmentSyncIn: (params) => runtime.hook(() => syncIn(runtime, params)),
    onEnvironmentSyncOut: (params) => runtime.hook(() => syncOut(runtime, params)),
  };
  // Exactly what the SDK's `definePlugin` returns; built here because the SDK is ESM-only
  // and this module must also load through `require()`.
  return Object.freeze({ definition });
}

export { DRIVER_KEY };
