import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import type {
  PaperclipPlugin,
  PaperclipPluginManifestV1,
  PluginEnvironmentLease,
} from "@paperclipai/plugin-sdk";
import { createEnvironmentTestHarness, type EnvironmentTestHarness } from "@paperclipai/plugin-sdk/testing";

export interface PluginUnderTest {
  readonly plugin: PaperclipPlugin;
  readonly harness: EnvironmentTestHarness;
  /** Everything the plugin sent to `ctx.execution.log`, in order. */
  readonly log: Array<{ stream: "stdout" | "stderr"; chunk: string }>;
  readonly base: {
    driverKey: string;
    companyId: string;
    environmentId: string;
    config: Record<string, unknown>;
  };
  sync: {
    in: NonNullable<PaperclipPlugin["definition"]["onEnvironmentSyncIn"]>;
    out: NonNullable<PaperclipPlugin["definition"]["onEnvironmentSyncOut"]>;
  };
  lease(acquired: PluginEnvironmentLease): { lease: PluginEnvironmentLease } & PluginUnderTest["base"];
}

/** Where the plugin finds an emulator (one in this process, or one another process started). */
export type EmulatorAddress = Pick<CreateosEmulator, "url" | "apiKey">;

/** Config that points the plugin at the emulator with test-speed tuning. */
export function emulatorConfig(
  emulator: EmulatorAddress,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    apiUrl: emulator.url,
    apiKey: emulator.apiKey,
    shape: "s-1vcpu-1gb",
    requestsPerMinute: 60_000,
    burst: 1_000,
    heartbeatTimeoutMs: 600,
    reconnectAttempts: 4,
    backoffBaseMs: 20,
    backoffCapMs: 200,
    lifecycleTimeoutMs: 10_000,
    ...extra,
  };
}

/** What the harness wires: the plugin's source (`plugin-under-test.ts`) or its build (`dist/`). */
/** Options a test passes to `createPlugin` besides the empty `env`. */
export interface PluginTestOptions {
  /** Shortened host limits (see `src/plugin/host-limits.ts`). */
  readonly hostLimits?: Record<string, number>;
}

export interface PluginBuild {
  readonly createPlugin: (options: { env: NodeJS.ProcessEnv } & PluginTestOptions) => PaperclipPlugin;
  readonly manifest: PaperclipPluginManifestV1;
}

/** The plugin wired into the SDK's own environment test harness, as the host would drive it. */
export async function wirePlugin(
  { createPlugin, manifest }: PluginBuild,
  emulator: EmulatorAddress,
  extra: Record<string, unknown> = {},
  environmentId = "env-1",
  options: PluginTestOptions = {},
): Promise<PluginUnderTest> {
  const plugin = createPlugin({ env: {}, ...options });
  const d = plugin.definition;
  const harness = createEnvironmentTestHarness({
    manifest,
    environmentDriver: {
      driverKey: "createos",
      onValidateConfig: (params) => d.onEnvironmentValidateConfig!(params),
      onProbe: (params) => d.onEnvironmentProbe!(params),
      onAcquireLease: (params) => d.onEnvironmentAcquireLease!(params),
      onResumeLease: (params) => d.onEnvironmentResumeLease!(params),
      onReleaseLease: (params) => d.onEnvironmentReleaseLease!(params),
      onDestroyLease: (params) => d.onEnvironmentDestroyLease!(params),
      onRealizeWorkspace: (params) => d.onEnvironmentRealizeWorkspace!(params),
      onExecute: (params) => d.onEnvironmentExecute!(params),
    },
  });
  const log: PluginUnderTest["log"] = [];
  // The harness's own sink is a no-op; record what the host would receive.
  harness.ctx.execution = { log: (stream, chunk) => log.push({ stream, chunk }) };
  await d.setup(harness.ctx);
  const base = {
    driverKey: "createos",
    companyId: "company-1",
    environmentId,
    config: emulatorConfig(emulator, extra),
  };
  return {
    plugin,
    harness,
    log,
    base,
    sync: { in: d.onEnvironmentSyncIn!, out: d.onEnvironmentSyncOut! },
    lease: (acquired) => ({ ...base, lease: acquired }),
  };
}

export function joinedLog(log: PluginUnderTest["log"], stream: "stdout" | "stderr"): string {
  return log
    .filter((entry) => entry.stream === stream)
    .map((entry) => entry.chunk)
    .join("");
}

/**
 * Lease metadata as the host stores it for a lease it will resume: with the reuse scope it
 * adds only for a `reuse_by_environment` lease of a run with an execution workspace and an
 * agent (`environment-runtime.js`, `buildReusableSandboxLeaseScope`).
 */
export function hostReusable(metadata: Record<string, unknown>): Record<string, unknown> {
  return {
    ...metadata,
    reusableSandboxLease: {
      version: 1,
      executionWorkspaceId: "workspace-1",
      agentId: "agent-1",
      provider: "createos",
    },
  };
}
