import type { CreateosClient } from "../client/createos-client.js";
import type { OutputFollower } from "./output-follower.js";
import type { ExitStatus } from "./output-frame.js";
import { processPath } from "./process-api.js";

/**
 * Closes the process's stdin (409 ignored) while its output is already being followed:
 * the two calls do not depend on each other, so the command's fixed cost has one round
 * trip less. The outcome is the one of doing them in turn: a failed close fails the
 * command (and stops the following), whichever of the two finishes first.
 */
export async function followWithStdinClosed(
  client: CreateosClient,
  sandboxId: string,
  processId: string,
  follower: OutputFollower,
  signal: AbortSignal,
): Promise<ExitStatus> {
  // One controller for both: the first failure stops the other call, which the command's
  // own signal would not (it is not aborted when the command fails).
  const both = new AbortController();
  const onAbort = (): void => both.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  if (signal.aborted) both.abort(signal.reason);
  const closing = client.json({
    method: "POST",
    path: `${processPath(sandboxId, processId)}/stdin/close`,
    operation: "stdin close",
    idempotent: true,
    allowStatuses: [409],
    signal: both.signal,
  });
  const exit = follower.follow(both.signal);
  try {
    const [status] = await Promise.all([exit, closing]);
    return status;
  } catch (error) {
    // The first failure is the outcome; the other call is stopped, and waited for, so that
    // nothing of this command (a close retried with its lease) outlives its failure.
    both.abort(error);
    await Promise.allSettled([exit, closing]);
    throw error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
