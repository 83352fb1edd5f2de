import { runShortCommand } from "../lease/sandbox-api.js";
import { DISCARD_SCRIPT } from "./staged-scripts.js";
import type { SyncScope } from "./sync-scope.js";

/** How long removing a sync's leftovers may take, past the sync's own (possibly spent) signal. */
const DISCARD_MS = 5_000;

/**
 * Removes what a sync staged in the sandbox (an archive, a file, a directory), best effort and
 * with its own deadline: the sync's signal is spent once the host's deadline or shutdown ended
 * it, and what it staged would stay (a single file's beside the user's target, in the
 * workspace). A cleanup: it goes ahead of waiting calls in the rate pacer. A step cut in flight
 * that CreateOS still runs afterwards may stage its file after this removal; nothing waits for
 * that, but a promotion already under way keeps what it claimed (see `DISCARD_SCRIPT`).
 */
export async function discardStaged(
  scope: Pick<SyncScope, "runtime" | "client" | "sandboxId">,
  paths: readonly string[],
): Promise<void> {
  const deadline = scope.runtime.cleanupDeadline(DISCARD_MS);
  await runShortCommand(
    scope.client,
    scope.sandboxId,
    "/bin/sh",
    ["-c", DISCARD_SCRIPT, "sh", ...paths],
    AbortSignal.timeout(Math.max(1, deadline - Date.now())),
    "cleanup",
  ).catch(() => undefined);
}
