import { PaperclipError } from "@paperclipai/errors";
import type { PluginEnvironmentProbeParams, PluginEnvironmentProbeResult } from "@paperclipai/plugin-sdk";
import type { CreateosClient } from "../client/createos-client.js";
import { execute } from "../execute/execute.js";
import { createOwnedSandbox } from "../lease/create-owned-sandbox.js";
import { CLEANUP_DELETE_MS, endSandbox } from "../lease/end-sandbox.js";
import { waitForStatus } from "../lease/sandbox-api.js";
import { budgetWithin, hostBound } from "./host-limits.js";
import type { PluginRuntime } from "./plugin-runtime.js";

const PROBE_TEXT = "paperclip-createos-ready";

function failure(error: unknown): PluginEnvironmentProbeResult {
  const message = error instanceof Error ? error.message : String(error);
  return {
    ok: false,
    summary: message,
    diagnostics: [{ severity: "error", message, ...(PaperclipError.is(error) ? { code: error.code } : {}) }],
  };
}

/**
 * Creates a sandbox, runs `/bin/echo` in it as every command runs (a managed process: create,
 * stdin close, output stream, exit) and always deletes it. Failures are reported, not thrown;
 * a sandbox the probe could not delete fails the probe, whatever the echo said. The host waits
 * 120 s for a probe: create and echo end in time for the delete to fit within it
 * (`ERR_CREATEOS_HOST_DEADLINE` past that). The create is not cut by that deadline: its
 * sandbox is deleted even when it answers late.
 */
export async function probeEnvironment(
  runtime: PluginRuntime,
  params: PluginEnvironmentProbeParams,
): Promise<PluginEnvironmentProbeResult> {
  let created: { client: CreateosClient; sandboxId: string } | undefined;
  let result: PluginEnvironmentProbeResult;
  const limits = runtime.hostLimits;
  const bound = hostBound(runtime.signal, "probe", budgetWithin(limits.probeMs - CLEANUP_DELETE_MS, limits));
  try {
    const config = runtime.config(params.config);
    const client = runtime.client(config);
    const deadline = Date.now() + config.lifecycleTimeoutMs;
    // Not cut by the host's deadline (see `createOwnedSandbox`): a create that answers after
    // the deadline is deleted below like any other.
    const sandboxId = await createOwnedSandbox(runtime, client, runtime.spec(config));
    created = { client, sandboxId };
    bound.signal.throwIfAborted();
    await waitForStatus(client, sandboxId, "running", deadline, bound.signal);
    const echo = await execute(
      client,
      {
        sandboxId,
        command: "/bin/echo",
        args: [PROBE_TEXT],
        timeoutMs: config.timeoutMs,
        signal: bound.signal,
      },
      runtime.tuning(config),
    );
    result =
      echo.timedOut || echo.exitCode !== 0 || !echo.stdout.includes(PROBE_TEXT)
        ? {
            ok: false,
            summary: "CreateOS command probe failed.",
            diagnostics: [
              {
                severity: "error",
                message: echo.timedOut ? "/bin/echo timed out" : `/bin/echo exited ${echo.exitCode}`,
              },
            ],
            metadata: { apiOrigin: client.origin },
          }
        : {
            ok: true,
            summary: "CreateOS sandbox creation and command execution succeeded.",
            metadata: { apiOrigin: client.origin, shape: config.shape },
          };
  } catch (error) {
    // A command cut by the budget reports a cancel; name the limit that cut it.
    result = failure(bound.expired() ? bound.signal.reason : error);
  } finally {
    bound.dispose();
  }
  if (created === undefined) return result;
  try {
    await endSandbox(
      runtime,
      created.client,
      created.sandboxId,
      runtime.cleanupDeadline(CLEANUP_DELETE_MS),
      "probe cleanup",
    );
  } catch (error) {
    const cleanup = failure(error);
    return { ...cleanup, diagnostics: [...(result.diagnostics ?? []), ...(cleanup.diagnostics ?? [])] };
  }
  return result;
}
