import { constants } from "node:fs";
import { type FileHandle, open, readdir, rmdir, unlink } from "node:fs/promises";

const OPEN_DIRECTORY_NO_FOLLOW = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

export interface RemoveTreeHooks {
  /** Called once a directory's entries are listed, before any is removed: lets a test swap one mid-walk. */
  readonly afterList?: ((dir: string, names: readonly string[]) => Promise<void> | void) | undefined;
}

/** `name` inside the directory open as `handle`, resolved from that open directory, not from a path. */
const inside = (handle: FileHandle, name: string): string => `/proc/self/fd/${handle.fd}/${name}`;

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/** Empties the directory open as `handle`; `label` only names it for the hook. */
async function emptyDirectory(handle: FileHandle, label: string, hooks: RemoveTreeHooks): Promise<void> {
  const names = await readdir(inside(handle, "."));
  await hooks.afterList?.(label, names);
  await Promise.all(names.map((name) => removeEntry(handle, name, `${label}/${name}`, hooks)));
}

async function removeEntry(
  parent: FileHandle,
  name: string,
  label: string,
  hooks: RemoveTreeHooks,
): Promise<void> {
  let child: FileHandle;
  try {
    child = await open(inside(parent, name), OPEN_DIRECTORY_NO_FOLLOW);
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT") return;
    // Not a directory, or a link (to a directory or not): the entry itself goes, never its target.
    if (code === "ENOTDIR" || code === "ELOOP") {
      await unlink(inside(parent, name)).catch((unlinkError: unknown) => {
        if (codeOf(unlinkError) !== "ENOENT") throw unlinkError;
      });
      return;
    }
    throw error;
  }
  try {
    await emptyDirectory(child, label, hooks);
  } catch (error) {
    await child.close();
    throw error;
  }
  // Removing a directory still open here is fine on Linux: both at once save a round trip per level.
  await Promise.all([
    child.close(),
    rmdir(inside(parent, name)).catch((error: unknown) => {
      if (codeOf(error) !== "ENOENT") throw error;
    }),
  ]);
}

/**
 * Removes the directory tree at `dir` without ever following a link, even one
 * swapped in for a directory while the walk runs (a sandbox may still write into
 * the mask directories it had as `/tmp`, or see a run directory in a shared
 * base): each directory is opened with `O_NOFOLLOW` and its entries are reached
 * through that open descriptor (`/proc/self/fd/<fd>/<name>`, openat-style), so a
 * swapped path is removed as the link it is. The entries of a level go at once:
 * the depth, not the entry count, sets the time. A missing `dir` is no error.
 */
export async function removeTreeNoFollow(dir: string, hooks: RemoveTreeHooks = {}): Promise<void> {
  let root: FileHandle;
  try {
    root = await open(dir, OPEN_DIRECTORY_NO_FOLLOW);
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT") return;
    if (code === "ENOTDIR" || code === "ELOOP") {
      await unlink(dir);
      return;
    }
    throw error;
  }
  try {
    await emptyDirectory(root, dir, hooks);
  } catch (error) {
    await root.close();
    throw error;
  }
  await Promise.all([
    root.close(),
    rmdir(dir).catch((error: unknown) => {
      if (codeOf(error) !== "ENOENT") throw error;
    }),
  ]);
}
