import { readdir, rm, rmdir, unlink } from "node:fs/promises";
import path from "node:path";
import { removeOwnerRecord } from "./owner-record.js";

/** Removes a directory tree, every entry of a directory at once: the depth, not the entry count, sets the time. */
async function removeTree(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  await Promise.all(
    entries.map((entry) => {
      const child = path.join(dir, entry.name);
      return entry.isDirectory() ? removeTree(child) : unlink(child);
    }),
  );
  await rmdir(dir);
}

/**
 * Removes a per-run directory. Its usual content is small and shallow (owner
 * record, bridge, socket, mask directories holding the sandbox's private `/tmp`
 * and `/run`), so the entries of each level are removed concurrently; anything
 * unexpected falls back to a plain recursive removal. Asynchronous on purpose:
 * right after a sandbox exits, removing a directory that was one of its mount
 * points can wait for the kernel to tear the mount namespace down
 * (milliseconds), which must not stall the event loop.
 */
export async function removeProxyTempDir(dir: string): Promise<void> {
  try {
    await removeTree(dir);
  } catch {
    // Gone already (force), or an entry raced or resisted: one recursive pass settles it.
    await rm(dir, { recursive: true, force: true });
  }
  await removeOwnerRecord(dir);
}
