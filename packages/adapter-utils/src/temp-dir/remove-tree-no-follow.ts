import { closeSync, constants, openSync, readdirSync } from "node:fs";
import { chmod, type FileHandle, open, readdir, rmdir, unlink } from "node:fs/promises";
import {
  emptiedInPlace,
  entryPath,
  OPEN_DIRECTORY_NO_FOLLOW,
  removedInPlace,
} from "./remove-in-place-sync.js";
import { cleanupUnfinished, codeOf, eachAtMost, movedToTop, type Walk } from "./remove-tree-walk-steps.js";

/**
 * `O_PATH`, taken from `fs.constants` should Node export it (Node 20, 22 and 24 do not:
 * libuv leaves it out). The fallback is Linux's value on x86, Arm, RISC-V, PowerPC and
 * s390, the platforms the sandbox runs on (Alpha, PA-RISC and SPARC differ).
 */
const O_PATH = (constants as { O_PATH?: number }).O_PATH ?? 0o10000000;

/**
 * Directories a walk holds open at once. Past it, a directory is not opened where it
 * is but moved to the top directory (a rename, no descriptor) and walked from there in
 * a later round: a tree of any width or depth (25,000 full directories side by side,
 * or nested 20,000 deep) costs at most this many descriptors, never `EMFILE`.
 */
export const MAX_OPEN_DIRECTORIES = 64;

/**
 * Directories a walk may hold open past `MAX_OPEN_DIRECTORIES` because they cannot move
 * to the top: a mount point (`EBUSY`) or a directory on another filesystem than the top
 * (`EXDEV`, and so every level below it) is walked in place. Past this many more, such a
 * directory is left for a later round; a round that leaves no fewer than the one before
 * (a subtree on another filesystem deeper than the two caps together) ends the walk with
 * `ERR_SANDBOX_CLEANUP_UNFINISHED`, the owner record kept. At most 128 descriptors, never `EMFILE`.
 */
export const MAX_UNMOVABLE_DIRECTORIES = 64;

/**
 * Removals of one directory's entries in flight at once. The thread pool serves four at a
 * time anyway; more only hold memory while they wait.
 */
export const MAX_PENDING_REMOVALS = 64;

/** Rounds of one walk at most (a tree 262,144 directories deep). */
export const MAX_ROUNDS = 4096;

export interface RemoveTreeHooks {
  /** Called once a directory's entries are listed, before any is removed: lets a test swap one mid-walk. */
  readonly afterList?: ((dir: string, names: readonly string[]) => Promise<void> | void) | undefined;
  /** Called just before the walk closes a directory's descriptor: lets a test check nothing still uses it. */
  readonly beforeClose?: ((dir: string) => void) | undefined;
}

export interface RemoveTreeOptions {
  /**
   * A top-level entry removed only once everything else is gone, just before the
   * directory itself: the run directory's owner record, so a tree that resists keeps
   * the record that lets a later sweep try again.
   */
  readonly removeLast?: string | undefined;
  /** Rounds at most (`MAX_ROUNDS`); a test sets fewer. */
  readonly maxRounds?: number | undefined;
}

/** The directory open as `handle`, as a path that resolves from that open directory, not from its name. */
const opened = (handle: FileHandle): string => `/proc/self/fd/${handle.fd}`;

const ignoreMissing = (error: unknown): void => {
  if (codeOf(error) !== "ENOENT") throw error;
};

/**
 * Opens `entry` as a directory without following a link. A link (to a directory
 * or not) or a file is unlinked instead, never its target; a missing entry is
 * gone already. Returns the handle, or `null` when nothing is left to walk.
 */
async function openDirectoryOrUnlink(entry: Buffer, retried = false): Promise<FileHandle | null> {
  try {
    return await open(entry, OPEN_DIRECTORY_NO_FOLLOW);
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT") return null;
    if (code === "EACCES" && !retried && (await grantedOwnerAccess(entry))) {
      return openDirectoryOrUnlink(entry, true);
    }
    if (code !== "ENOTDIR" && code !== "ELOOP") throw error;
    await unlink(entry).catch(ignoreMissing);
    return null;
  }
}

/**
 * Gives the owner back read, write and search on the directory `entry`, which a program
 * of the run may have taken away (`chmod 000`) so that a runner without
 * `CAP_DAC_OVERRIDE` could neither list nor empty it. Reached without following a link:
 * `O_PATH | O_NOFOLLOW` holds the entry itself, and `chmod` through its `/proc/self/fd`
 * link changes that inode, never what a link swapped in would name. `false` for
 * anything but a directory (a file or link is unlinked, whatever its mode).
 */
async function grantedOwnerAccess(entry: Buffer): Promise<boolean> {
  let held: FileHandle;
  try {
    held = await open(entry, O_PATH | constants.O_NOFOLLOW);
  } catch {
    return false;
  }
  try {
    if (!(await held.stat()).isDirectory()) return false;
    await chmod(`/proc/self/fd/${held.fd}`, 0o700);
    return true;
  } finally {
    await held.close();
  }
}

/**
 * Removes `entry` without opening it when it is an empty directory (the usual mask
 * directory) or no directory at all (a file, a link): rmdir and unlink never follow a
 * link. A file costs two calls, not three: a program leaves files by the million.
 * `false` for a full directory, or anything either call refused, left to the walk.
 */
async function removedWithoutWalking(entry: Buffer): Promise<boolean> {
  try {
    await rmdir(entry);
    return true;
  } catch (error) {
    if (codeOf(error) !== "ENOTDIR") return false;
  }
  return unlink(entry).then(
    () => true,
    (error: unknown) => codeOf(error) === "ENOENT",
  );
}

/**
 * Removes the entry `name` of the directory open as `dir` (a descriptor path), whatever
 * it is. A full directory met while `MAX_OPEN_DIRECTORIES` are open is moved to the top
 * directory instead, for a later round (rename moves the entry itself, never a link's
 * target; a name taken there, by an entry the walk removes anyway, means the next one).
 */
async function removeEntry(
  dir: string,
  name: Buffer,
  label: string,
  hooks: RemoveTreeHooks,
  walk: Walk,
): Promise<void> {
  const entry = entryPath(dir, name);
  if (await removedWithoutWalking(entry)) return;
  if (walk.open >= MAX_OPEN_DIRECTORIES && dir !== walk.top) {
    if (await movedToTop(entry, walk)) return;
    // Walked in place (it cannot move), within MAX_UNMOVABLE_DIRECTORIES more; past them, left for a later round.
    if (walk.open >= MAX_OPEN_DIRECTORIES + MAX_UNMOVABLE_DIRECTORIES) {
      walk.deferred += 1;
      return;
    }
  }
  walk.open += 1;
  let child: FileHandle | null;
  try {
    child = await openDirectoryOrUnlink(entry);
  } catch (error) {
    walk.open -= 1;
    throw error;
  }
  if (child) await removeOpenDirectory(child, entry, `${label}/${name.toString()}`, hooks, walk);
  else walk.open -= 1;
}

/**
 * Lists the directory open as `handle` and removes each entry, at most
 * `MAX_PENDING_REMOVALS` at a time: one pending removal per entry held about 5 KiB of the
 * host's heap each, so a million empty files a program left in twelve seconds took the
 * host process past 5 GiB. Every removal settles before the first failure is thrown.
 */
async function emptyOpenDirectory(handle: FileHandle, label: string, hooks: RemoveTreeHooks, walk: Walk) {
  // Bytes, not strings: a name that is not UTF-8 is removed as it is spelt (EntryPath).
  const names = await readdir(opened(handle), { encoding: "buffer" });
  await hooks.afterList?.(label, names.map(String));
  await eachAtMost(MAX_PENDING_REMOVALS, names, (name) =>
    removeEntry(opened(handle), name, label, hooks, walk),
  );
}

/**
 * Empties the directory open as `handle`, then closes it and removes `entry` (its name
 * from its parent). A directory the program left without write or search permission
 * for its owner (`chmod 500`, `chmod 600`) gets them back through the open descriptor
 * and is emptied again.
 */
async function removeOpenDirectory(
  handle: FileHandle,
  entry: Buffer,
  label: string,
  hooks: RemoveTreeHooks,
  walk: Walk,
): Promise<void> {
  try {
    try {
      await emptyOpenDirectory(handle, label, hooks, walk);
    } catch (error) {
      if (codeOf(error) !== "EACCES") throw error;
      await handle.chmod(0o700);
      await emptyOpenDirectory(handle, label, hooks, walk);
    }
  } catch (error) {
    walk.open -= 1;
    hooks.beforeClose?.(label);
    await handle.close();
    throw error;
  }
  walk.open -= 1;
  hooks.beforeClose?.(label);
  // Removing a directory still open here is fine on Linux: both at once save a round trip per level.
  await Promise.all([handle.close(), rmdir(entry).catch(ignoreMissing)]);
}

/**
 * Removes the directory tree at `dir` without ever following a link, even one
 * swapped in for a directory while the walk runs (a sandbox may still write into
 * the mask directories it had as `/tmp`, or see a run directory in a shared
 * base): each directory is opened with `O_NOFOLLOW` and its entries are reached
 * through that open descriptor (`/proc/self/fd/<fd>/<name>`, openat-style), so a
 * swapped path is removed as the link it is. The entries of a level go
 * `MAX_PENDING_REMOVALS` at a time, with at most
 * `MAX_OPEN_DIRECTORIES` open; what lies past them is moved to the top and taken
 * in the next round, until the top is empty. A missing `dir` is no error.
 * The top directory is opened and listed in place, and what takes one call per
 * entry goes there too, in the call (microseconds, where each thread-pool round
 * trip costs a scheduling, several per level): a run directory's record, masks and
 * private /tmp of mount points. A busy entry (a mount still being torn down) or a
 * fuller tree is left to the asynchronous walk, which retries.
 */
export async function removeTreeNoFollow(
  dir: string,
  hooks: RemoveTreeHooks = {},
  options: RemoveTreeOptions = {},
): Promise<void> {
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
  const { removeLast, maxRounds = MAX_ROUNDS } = options;
  const last = removeLast === undefined ? undefined : Buffer.from(removeLast);
  const notLast = (name: Buffer): boolean => last === undefined || !name.equals(last);
  try {
    const top = `/proc/self/fd/${root}`;
    const names = readdirSync(top, { encoding: "buffer" }).filter(notLast);
    if (hooks.afterList) await hooks.afterList(dir, names.map(String));
    // A run's usual leftovers (its owner record, empty masks, a private /tmp holding only
    // mount points) go on the spot; the rest, and anything a hook wants to see listed, by the walk.
    let left = hooks.afterList
      ? names
      : names.filter(
          (name) => !removedInPlace(entryPath(top, name)) && !emptiedInPlace(entryPath(top, name)),
        );
    const walk: Walk = { top, open: 0, moved: 0, deferred: 0 };
    // Each round takes MAX_OPEN_DIRECTORIES levels off the deepest branch: enough for a tree
    // far deeper than a run can make, and an end even if something kept adding to it.
    let rounds = 0;
    let deferredBefore = Number.POSITIVE_INFINITY;
    while (left.length > 0 && rounds < maxRounds) {
      rounds += 1;
      const movedBefore = walk.moved;
      walk.deferred = 0;
      await eachAtMost(MAX_OPEN_DIRECTORIES, left, (name) => removeEntry(top, name, dir, hooks, walk)).catch(
        (error: unknown) => {
          // A directory left past the caps keeps its ancestors full: their rmdir says ENOTEMPTY.
          if (walk.deferred === 0 || codeOf(error) !== "ENOTEMPTY") throw error;
        },
      );
      // Entries moved up in this round (and anything else still there) make the next one.
      left = readdirSync(top, { encoding: "buffer" }).filter(notLast);
      if (walk.deferred > 0) {
        // As many left behind as in the round before: the unmovable subtree is too deep to finish.
        if (walk.deferred >= deferredBefore) break;
        deferredBefore = walk.deferred;
      } else if (walk.moved === movedBefore) break;
    }
    // Whatever is left (the round cap, or entries written at the top during a round that
    // moved nothing up) ends the walk before the owner record goes: the record stays for
    // the sweep, and the caller gets the coded error rather than rmdir's bare ENOTEMPTY.
    if (left.length > 0) throw cleanupUnfinished(dir, rounds, left.length);
    // A file, as written (one unlink), or whatever was planted in its place (the walk).
    if (last !== undefined && !removedInPlace(entryPath(top, last)))
      await removeEntry(top, last, dir, hooks, walk);
  } finally {
    closeSync(root);
  }
  if (!removedInPlace(dir)) await rmdir(dir).catch(ignoreMissing);
}
