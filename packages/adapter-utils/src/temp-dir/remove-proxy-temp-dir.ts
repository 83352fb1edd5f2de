import { readdir, rm, rmdir, unlink } from "node:fs/promises";
import path from "node:path";

/**
 * Removes a per-run directory. Its usual content is known and flat (owner
 * record, bridge, socket, mask directories), so it is unlinked entry by entry;
 * anything the program left in its private `/tmp` falls back to a recursive
 * removal. Asynchronous on purpose: right after a sandbox exits, removing a
 * directory that was one of its mount points waits for the kernel to tear the
 * mount namespace down (milliseconds), which must not stall the event loop.
 */
export async function removeProxyTempDir(dir: string): Promise<void> {
  try {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const child = path.join(dir, entry.name);
      if (!entry.isDirectory()) await unlink(child);
      else {
        for (const inner of await readdir(child))
          await rm(path.join(child, inner), { recursive: true, force: true });
        await rmdir(child);
      }
    }
    await rmdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    await rm(dir, { recursive: true, force: true });
  }
}
