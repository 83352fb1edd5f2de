import { runShortCommand } from "../lease/sandbox-api.js";
import type { SyncScope } from "./sync-scope.js";

/** How long removing a sync's leftovers may take, past the sync's own (possibly spent) signal. */
const DISCARD_MS = 5_000;

/**
 * Removes what a sync staged in the sandbox (an archive, a file, a directory), best effort and
 * with its own deadline: the sync's signal is spent once the host's deadline or shutdown ended
 * it, and what it staged would stay (a single file's beside the user's target, in the
 * workspace). A step cut in flight that CreateOS still runs afterwards may stage its file after
 * this removal; nothing waits for that.
 */
export async function discardStaged(scope: SyncScope, paths: readonly string[]): Promise<void> {
  const deadline = scope.runtime.cleanupDeadline(DISCARD_MS);
  await runShortCommand(
    scope.client,
    scope.sandboxId,
    "/bin/rm",
    ["-rf", "--", ...paths],
    AbortSignal.timeout(Math.max(1, deadline - Date.now())),
  ).catch(() => undefined);
}
