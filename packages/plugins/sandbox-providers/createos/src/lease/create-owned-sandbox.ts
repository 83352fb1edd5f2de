import { PaperclipError } from "@paperclipai/errors";
import type { CreateosClient } from "../client/createos-client.js";
import type { PluginRuntime } from "../plugin/plugin-runtime.js";
import { mayHaveActed } from "./may-have-acted.js";
import { createSandbox, type SandboxSpec } from "./sandbox-api.js";

/**
 * Creates the sandbox of an acquire or a probe. The create is sent without the host's
 * deadline, and once sent shutdown does not cut it until its time is up (`exitSignal`):
 * aborting it in flight would lose a sandbox CreateOS may already have made (no id, nothing
 * to delete), so its answer is read and the caller deletes that sandbox. One not yet sent is
 * never sent once shutdown has begun. One still unanswered when shutdown's time is up is cut
 * all the same (the host's SIGTERM follows). Either that or any other failure that may have
 * made a sandbox (see `mayHaveActed`) is told to the host's log: CreateOS has no
 * idempotency key nor a listing the plugin could find such a sandbox by, so it may run on
 * that no one can name.
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
    } else if (mayHaveActed(error, runtime.signal.reason)) {
      runtime.warn(
        "A CreateOS sandbox create failed without an answer that rules out a sandbox; CreateOS may have made one whose id is unknown. Look for it in CreateOS and delete it.",
        { failure: PaperclipError.is(error) ? { code: error.code, message: error.message } : "UNKNOWN" },
      );
    }
    throw error;
  }
}
