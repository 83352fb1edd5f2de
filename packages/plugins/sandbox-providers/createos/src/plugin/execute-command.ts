import type { PluginEnvironmentExecuteParams, PluginEnvironmentExecuteResult } from "@paperclipai/plugin-sdk";
import { execute } from "../execute/execute.js";
import type { OutputStream } from "../execute/output-frame.js";
import { resolveLease } from "../lease/resolve-lease.js";
import { splitForLiveLog } from "./live-log-chunks.js";
import type { PluginRuntime } from "./plugin-runtime.js";

/** The execute hook: a command on a usable lease, its output live to the host log. */
export async function executeCommand(
  runtime: PluginRuntime,
  params: PluginEnvironmentExecuteParams,
  log: (stream: OutputStream, text: string) => void,
): Promise<PluginEnvironmentExecuteResult> {
  const { config, client, metadata } = resolveLease(runtime, params, params.lease, "execution");
  const sandboxId = metadata.sandboxId;
  runtime.leases.assertUsable(sandboxId);
  return runtime.leases.track(sandboxId, runtime.signal, (signal) =>
    execute(
      client,
      {
        sandboxId,
        command: params.command,
        args: params.args,
        cwd: params.cwd,
        env: params.env,
        stdin: params.stdin,
        // Upstream's `timeoutMs` is the deadline of a command the host sends without one.
        timeoutMs:
          params.timeoutMs !== undefined && params.timeoutMs > 0 ? params.timeoutMs : config.timeoutMs,
        signal,
        onLog: (stream, text) => {
          for (const piece of splitForLiveLog(text)) log(stream, piece);
        },
      },
      runtime.tuning(config),
      { block: (reason) => runtime.leases.block(sandboxId, reason) },
    ),
  );
}
