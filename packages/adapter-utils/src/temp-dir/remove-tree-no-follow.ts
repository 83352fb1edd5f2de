import { closeSync, constants, openSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";
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

/**
 * Removes `entry` on the spot when that takes one call: an empty directory (rmdir), a
 * file or a link (unlink, after rmdir's ENOTDIR; neither follows a link). Anything
 * else (a full or busy directory) is left to the walk: `false`.
 */
function removedInPlace(entry: string): boolean {
  try {
    rmdirSync(entry);
    return true;
  } catch (error) {
    if (codeOf(error) === "ENOENT") return true;
    if (codeOf(error) !== "ENOTDIR") return false;
  }
  try {
    unlinkSync(entry);
    return true;
  } catch (error) {
    return codeOf(error) === "ENOENT";
  }
}

/** Entries a directory may hold for its removal to stay synchronous: a run leaves a few mount points, not a program's files. */
const IN_PLACE_LIMIT = 16;

/**
 * Removes the directory `entry` when it holds at most IN_PLACE_LIMIT entries that each go
 * in one call (a private /tmp holding the mount points of the paths bound back), all
 * synchronously: microseconds on the run directory's tmpfs, where each thread-pool round
 * trip of the walk costs a scheduling. Reached through an `O_NOFOLLOW` descriptor like
 * the walk; `false` leaves the rest to the walk.
 */
export function emptiedInPlace(entry: string): boolean {
  let handle: number;
  try {
    handle = openSync(entry, OPEN_DIRECTORY_NO_FOLLOW);
  } catch {
    return false;
  }
  try {
    const names = readdirSync(`/proc/self/fd/${handle}`);
    if (names.length > IN_PLACE_LIMIT) return false;
    if (!names.every((name) => removedInPlace(`/proc/self/fd/${handle}/${name}`))) return false;
  } catch {
    return false;
  } finally {
    closeSync(handle);
  }
  return removedInPlace(entry);
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
 * The top directory is opened and listed in place, and what takes one call per
 * entry goes there too, in the call (microseconds, where each thread-pool round
 * trip costs a scheduling, several per level): a run directory's record, masks and
 * private /tmp of mount points. A busy entry (a mount still being torn down) or a
 * fuller tree is left to the asynchronous walk, which retries.
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
    const top = `/proc/self/fd/${root}`;
    const names = readdirSync(top);
    if (hooks.afterList) await hooks.afterList(dir, names);
    // A run's usual leftovers (its owner record, empty masks, a private /tmp holding only
    // mount points) go on the spot; the rest, and anything a hook wants to see listed, by the walk.
    const left = hooks.afterList
      ? names
      : names.filter((name) => !removedInPlace(`${top}/${name}`) && !emptiedInPlace(`${top}/${name}`));
    await Promise.all(left.map((name) => removeEntry(top, name, dir, hooks)));
  } finally {
    closeSync(root);
  }
  if (!removedInPlace(dir)) await rmdir(dir).catch(ignoreMissing);
}
