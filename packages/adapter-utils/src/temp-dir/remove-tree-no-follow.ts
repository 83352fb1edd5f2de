import { closeSync, constants, openSync, readdirSync } from "node:fs";
import { type FileHandle, open, readdir, rmdir, unlink } from "node:fs/promises";

const OPEN_DIRECTORY_NO_FOLLOW = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

export interface RemoveTreeHooks {
  /** Called once a directory's entries are listed, before any is removed: lets a test swap one mid-walk. */
  readonly afterList?: ((dir: string, names: readonly string[]) => Promise<void> | void) | undefined;
}

/** `name` inside the directory open as `handle`, resolved from that open directory, not from a path. */
const inside = (handle: FileHandle, name: string): string => `/proc/self/fd/${handle.fd}/${name}`;

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

const ignoreMissing = (error: unknown): void => {
  if (codeOf(error) !== "ENOENT") throw error;
};

/**
 * Opens `entry` as a directory without following a link. A link (to a directory
 * or not) or a file is unlinked instead, never its target; a missing entry is
 * gone already. Returns the handle, or `null` when nothing is left to walk.
 */
async function openDirectoryOrUnlink(entry: string): Promise<FileHandle | null> {
  try {
    return await open(entry, OPEN_DIRECTORY_NO_FOLLOW);
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT") return null;
    if (code !== "ENOTDIR" && code !== "ELOOP") throw error;
    await unlink(entry).catch(ignoreMissing);
    return null;
  }
}

/**
 * Removes `entry` when it is an empty directory (the usual mask directory) in one call:
 * rmdir never follows a link, and refuses anything else (a file, a link, a full directory).
 */
function removedIfEmptyDirectory(entry: string): Promise<boolean> {
  return rmdir(entry).then(
    () => true,
    () => false,
  );
}

/** Removes the entry `name` of the directory open as `dir` (a descriptor path), whatever it is. */
async function removeEntry(dir: string, name: string, label: string, hooks: RemoveTreeHooks): Promise<void> {
  const entry = `${dir}/${name}`;
  if (await removedIfEmptyDirectory(entry)) return;
  const child = await openDirectoryOrUnlink(entry);
  if (child) await removeOpenDirectory(child, entry, `${label}/${name}`, hooks);
}

/** Empties the directory open as `handle`, then closes it and removes `entry` (its name from its parent). */
async function removeOpenDirectory(
  handle: FileHandle,
  entry: string,
  label: string,
  hooks: RemoveTreeHooks,
): Promise<void> {
  try {
    const names = await readdir(inside(handle, "."));
    await hooks.afterList?.(label, names);
    await Promise.all(names.map((name) => removeEntry(inside(handle, "."), name, label, hooks)));
  } catch (error) {
    await handle.close();
    throw error;
  }
  // Removing a directory still open here is fine on Linux: both at once save a round trip per level.
  await Promise.all([handle.close(), rmdir(entry).catch(ignoreMissing)]);
}

/**
 * Removes the directory tree at `dir` without ever following a link, even one
 * swapped in for a directory while the walk runs (a sandbox may still write into
 * the mask directories it had as `/tmp`, or see a run directory in a shared
 * base): each directory is opened with `O_NOFOLLOW` and its entries are reached
 * through that open descriptor (`/proc/self/fd/<fd>/<name>`, openat-style), so a
 * swapped path is removed as the link it is. The entries of a level go at once:
 * the depth, not the entry count, sets the time. A missing `dir` is no error.
 * The top directory is opened and listed in place (microseconds, where each
 * thread-pool round trip costs a scheduling); what can wait on the kernel (the
 * removals, right after a sandbox whose mounts are still being torn down) stays
 * asynchronous.
 */
export async function removeTreeNoFollow(dir: string, hooks: RemoveTreeHooks = {}): Promise<void> {
  let root: number;
  try {
    root = openSync(dir, OPEN_DIRECTORY_NO_FOLLOW);
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT") return;
    if (code !== "ENOTDIR" && code !== "ELOOP") throw error;
    await unlink(dir).catch(ignoreMissing);
    return;
  }
  try {
    const names = readdirSync(`/proc/self/fd/${root}`);
    await hooks.afterList?.(dir, names);
    await Promise.all(names.map((name) => removeEntry(`/proc/self/fd/${root}`, name, dir, hooks)));
  } finally {
    closeSync(root);
  }
  await rmdir(dir).catch(ignoreMissing);
}
