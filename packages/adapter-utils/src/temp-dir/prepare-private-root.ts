import { chmodSync, lstatSync, mkdirSync, type Stats } from "node:fs";
import { lstat } from "node:fs/promises";

function failure(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * A private socket root must be this user's own directory, and no one else's way
 * in: created 0700 when missing; one another user made first (or a link) is
 * refused, since its owner could read the names inside or swap them. Throws an
 * error with an errno-style `code` when the root cannot serve.
 */
export function preparePrivateRoot(root: string): void {
  const uid = process.getuid?.() ?? 0;
  // Made once, then looked at on every start: `lstat` first, so the usual case throws no `EEXIST`.
  let stats = lstatSync(root, { throwIfNoEntry: false });
  if (stats === undefined) {
    try {
      mkdirSync(root, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    stats = lstatSync(root);
  }
  if (!stats.isDirectory()) throw failure("ENOTDIR", `${root} is not a directory`);
  if (stats.uid !== uid) throw failure("EPERM", `${root} belongs to uid ${stats.uid}, not ${uid}`);
  if ((stats.mode & 0o077) !== 0) chmodSync(root, 0o700);
}

/**
 * Whether a root's contents can be believed (pure over its `lstat`): this uid's own
 * directory that no one else can write. The roots have fixed names, so another user may
 * have made one first (the `/tmp` root, while `/dev/shm` serves); an owner record there is
 * that user's word, and the sweep kills and removes on it.
 */
export function isOwnPrivateRoot(
  stats: Pick<Stats, "isDirectory" | "uid" | "mode"> | null,
  uid: number,
): boolean {
  return stats?.isDirectory() === true && stats.uid === uid && (stats.mode & 0o022) === 0;
}

/** The roots among `roots` whose records can be believed (`isOwnPrivateRoot`). */
export async function ownPrivateRoots(roots: readonly string[]): Promise<string[]> {
  const uid = process.getuid?.() ?? 0;
  const stats = await Promise.all(roots.map((root) => lstat(root).catch(() => null)));
  return roots.filter((_, index) => isOwnPrivateRoot(stats[index]!, uid));
}
