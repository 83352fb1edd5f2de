import type { CreateosClient } from "../client/createos-client.js";
import type { PluginRuntime } from "../plugin/plugin-runtime.js";
import { createSandbox, type SandboxSpec } from "./sandbox-api.js";

/**
 * Creates the sandbox of an acquire or a probe. The create is sent without the host's
 * deadline, and once sent shutdown does not cut it until its time is up (`exitSignal`):
 * aborting it in flight would lose a sandbox CreateOS may already have made (no id, nothing
 * to delete), so its answer is read and the caller deletes that sandbox. One not yet sent is
 * never sent once shutdown has begun. One still unanswered when shutdown's time is up is cut
 * all the same (the host's SIGTERM follows): that is told to the host's log, since a sandbox
 * may now run that no one can name.
 */
export async function createOwnedSandbox(
  runtime: PluginRuntime,
  client: CreateosClient,
  spec: SandboxSpec,
): Promise<string> {
  try {
    return await createSandbox(client, spec, runtime.exitSignal, runtime.signal);
  } catch (error) {
    if (runtime.exitSignal.aborted) {
      runtime.warn(
        "A CreateOS sandbox create was still unanswered when shutdown's time was up; CreateOS may have made a sandbox whose id is unknown. Look for it in CreateOS and delete it.",
      );
    }
    throw error;
  }
}
