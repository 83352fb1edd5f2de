import { removeOwnerRecord } from "./owner-record.js";
import { removeTreeNoFollow } from "./remove-tree-no-follow.js";

/**
 * Removes a per-run directory (owner record, bridge, socket, mask directories that
 * held the sandbox's private `/tmp` and `/run`) and its owner record. Never follows
 * a link, even one a sandbox swapped in mid-walk (`remove-tree-no-follow.ts`).
 * Asynchronous on purpose: right after a sandbox exits, removing a directory that
 * was one of its mount points can wait for the kernel to tear the mount namespace
 * down (milliseconds), which must not stall the event loop. An entry that resisted
 * (busy a moment longer) gets one more pass.
 */
export async function removeProxyTempDir(dir: string): Promise<void> {
  const removeTree = removeTreeNoFollow(dir).catch(() => removeTreeNoFollow(dir).catch(() => {}));
  // Side by side: the record is one unlink in a private root, the tree waits on the kernel.
  await Promise.all([removeTree, removeOwnerRecord(dir)]);
}
