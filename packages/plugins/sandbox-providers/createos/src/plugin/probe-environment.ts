import { PaperclipError } from "@paperclipai/errors";
import type { PluginEnvironmentProbeParams, PluginEnvironmentProbeResult } from "@paperclipai/plugin-sdk";
import { createSandbox, deleteSandbox, runShortCommand, waitForStatus } from "../lease/sandbox-api.js";
import type { PluginRuntime } from "./plugin-runtime.js";

const PROBE_TEXT = "paperclip-createos-probe";

/** Creates a sandbox, runs `/bin/echo` in it and always deletes it. Failures are reported, not thrown. */
export async function probeEnvironment(
  runtime: PluginRuntime,
  params: PluginEnvironmentProbeParams,
): Promise<PluginEnvironmentProbeResult> {
  let sandboxId: string | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  try {
    const config = runtime.config(params.config);
    const client = runtime.client(config);
    const deadline = Date.now() + config.lifecycleTimeoutMs;
    cleanup = async () => {
      if (sandboxId !== undefined) await deleteSandbox(client, sandboxId, Date.now() + 15_000);
    };
    sandboxId = await createSandbox(client, runtime.spec(config), runtime.signal);
    await waitForStatus(client, sandboxId, "running", deadline, runtime.signal);
    const echo = await runShortCommand(client, sandboxId, "/bin/echo", [PROBE_TEXT], runtime.signal);
    if (echo.exitCode !== 0 || echo.stdout.trim() !== PROBE_TEXT) {
      return {
        ok: false,
        summary: "CreateOS sandbox ran, but /bin/echo did not answer as expected.",
        diagnostics: [{ severity: "error", message: `/bin/echo exited ${echo.exitCode}` }],
        metadata: { apiOrigin: client.origin },
      };
    }
    return {
      ok: true,
      summary: `CreateOS at ${client.origin} created a ${config.shape} sandbox and ran /bin/echo.`,
      metadata: { apiOrigin: client.origin, shape: config.shape },
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      summary: message,
      diagnostics: [
        {
          severity: "error",
          message,
          ...(PaperclipError.is(error) ? { code: error.code } : {}),
        },
      ],
    };
  } finally {
    await cleanup?.().catch(() => undefined);
  }
}
