import { removeOwnerRecord } from "./owner-record.js";
import { OWNER_RECORD_NAME } from "./owner-record-location.js";
import { removeTreeNoFollow } from "./remove-tree-no-follow.js";

/**
 * Removes a per-run directory (owner record, bridge, socket, mask directories that
 * held the sandbox's private `/tmp` and `/run`) and then its owner record. Never follows
 * a link, even one a sandbox swapped in mid-walk (`remove-tree-no-follow.ts`).
 * A run's usual leftovers go in the call (a few metadata calls on a tmpfs: a median
 * of tens of microseconds, against a thread-pool round trip per step of the walk);
 * an entry that resisted (a mount point still busy while the kernel tears the mount
 * namespace down) is left to the asynchronous walk, and gets one more pass.
 *
 * Returns `false` when the directory resisted both passes (a mount point that stays
 * busy, `ENOMEM`): its owner record is then kept, in the registry or inside the
 * directory (the walk removes that one last), so the stale-directory sweep of a later
 * start tries again once this process is gone. Never throws.
 */
export async function removeProxyTempDir(dir: string): Promise<boolean> {
  const options = { removeLast: OWNER_RECORD_NAME };
  const removed = await removeTreeNoFollow(dir, {}, options).then(
    () => true,
    () =>
      removeTreeNoFollow(dir, {}, options).then(
        () => true,
        () => false,
      ),
  );
  if (removed) await removeOwnerRecord(dir);
  return removed;
}
