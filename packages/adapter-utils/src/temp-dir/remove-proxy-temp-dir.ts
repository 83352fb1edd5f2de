import { readdirSync, rmdirSync, rmSync, unlinkSync } from "node:fs";
import path from "node:path";

/**
 * Removes a per-run directory. Its usual content is known and flat (owner
 * record, bridge, socket, empty mask directories), so it is unlinked entry by
 * entry; anything the program left in its private `/tmp` falls back to a
 * recursive removal. This keeps the common cleanup to a handful of syscalls.
 */
export async function removeProxyTempDir(dir: string): Promise<void> {
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const child = path.join(dir, entry.name);
      if (!entry.isDirectory()) unlinkSync(child);
      else {
        for (const inner of readdirSync(child))
          rmSync(path.join(child, inner), { recursive: true, force: true });
        rmdirSync(child);
      }
    }
    rmdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    rmSync(dir, { recursive: true, force: true });
  }
}
