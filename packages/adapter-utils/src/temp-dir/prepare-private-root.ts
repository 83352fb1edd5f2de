import { chmodSync, lstatSync, mkdirSync } from "node:fs";

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
  try {
    mkdirSync(root, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const stats = lstatSync(root);
  if (!stats.isDirectory()) throw failure("ENOTDIR", `${root} is not a directory`);
  if (stats.uid !== uid) throw failure("EPERM", `${root} belongs to uid ${stats.uid}, not ${uid}`);
  if ((stats.mode & 0o077) !== 0) chmodSync(root, 0o700);
}
