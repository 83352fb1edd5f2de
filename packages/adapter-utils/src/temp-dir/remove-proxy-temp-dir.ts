import { removeOwnerRecord } from "./owner-record.js";
import { removeTreeNoFollow } from "./remove-tree-no-follow.js";

/**
 * Removes a per-run directory (owner record, bridge, socket, mask directories that
 * held the sandbox's private `/tmp` and `/run`) and its owner record. Never follows
 * a link, even one a sandbox swapped in mid-walk (`remove-tree-no-follow.ts`).
 * A run's usual leftovers go in the call (a few metadata calls on a tmpfs: a median
 * of tens of microseconds, against a thread-pool round trip per step of the walk);
 * an entry that resisted (a mount point still busy while the kernel tears the mount
 * namespace down) is left to the asynchronous walk, and gets one more pass.
 */
export async function removeProxyTempDir(dir: string): Promise<void> {
  const removeTree = removeTreeNoFollow(dir).catch(() => removeTreeNoFollow(dir).catch(() => {}));
  // Side by side: the record is one unlink in a private root, the tree waits on the kernel.
  await Promise.all([removeTree, removeOwnerRecord(dir)]);
}
