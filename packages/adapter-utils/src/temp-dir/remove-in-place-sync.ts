import { closeSync, constants, openSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";

/**
 * The synchronous quick path of `removeTreeNoFollow`: entries that go in one call each
 * (an empty directory, a file, a link) and small directories of them, removed in the
 * call without a thread-pool round trip, never following a link.
 */

export const OPEN_DIRECTORY_NO_FOLLOW = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/**
 * A path to an entry of a run's tree, as bytes. A program names its files with any bytes
 * but `/` and NUL: a name that is not UTF-8 (`\xff`), listed as a string, came back with
 * U+FFFD in its place, and every call on that spelling met `ENOENT`, so the file stayed on
 * the host (on `/dev/shm`, memory) after the run. Names are listed as Buffers and paths
 * joined as bytes (`entryPath`), which every `fs` call takes as they are.
 */
export type EntryPath = string | Buffer;

/** `name` (listed as bytes) inside `dir`, as bytes. */
export function entryPath(dir: EntryPath, name: Buffer): Buffer {
  return Buffer.concat([Buffer.from(dir), Buffer.from("/"), name]);
}

/**
 * Removes `entry` on the spot when that takes one call: an empty directory (rmdir), a
 * file or a link (unlink, after rmdir's ENOTDIR; neither follows a link). Anything
 * else (a full or busy directory) is left to the walk: `false`.
 */
export function removedInPlace(entry: EntryPath): boolean {
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
export function emptiedInPlace(entry: EntryPath): boolean {
  let handle: number;
  try {
    handle = openSync(entry, OPEN_DIRECTORY_NO_FOLLOW);
  } catch {
    return false;
  }
  try {
    const dir = `/proc/self/fd/${handle}`;
    const names = readdirSync(dir, { encoding: "buffer" });
    if (names.length > IN_PLACE_LIMIT) return false;
    if (!names.every((name) => removedInPlace(entryPath(dir, name)))) return false;
  } catch {
    return false;
  } finally {
    closeSync(handle);
  }
  return removedInPlace(entry);
}
