import { lstat, readdir, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * A sync out stages beside its target under a name that says which target and which process:
 * `.<target>.paperclip-sync-<pid>-<random>` (a directory, a single file's temp, or a replaced
 * tree's `.old`). The pid lets the next sync to the same target tell a staging entry that a
 * killed worker left (it holds disk forever) from one a running sync still fills.
 */
export function stagingPrefix(target: string): string {
  return `.${basename(target)}.paperclip-sync-${process.pid}-`;
}

const SUFFIX = /^(\d{1,10})-[A-Za-z0-9-]{6,36}(\.old)?$/;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's. Only "no such process" is dead.
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/**
 * Removes the staging entries of `target` whose process is gone: only names of the exact
 * pattern, only entries this user owns, never a link (a link is never staging; the removal
 * itself does not follow links below the entry either). Best effort: an entry that cannot be
 * judged or removed is left for the next sync.
 */
export async function sweepStaleStaging(target: string): Promise<void> {
  const dir = dirname(target);
  const prefix = `.${basename(target)}.paperclip-sync-`;
  const names = await readdir(dir).catch(() => [] as string[]);
  const uid = process.getuid?.();
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(SUFFIX.exec(name.slice(prefix.length))?.[1] ?? 0);
    if (pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    const path = join(dir, name);
    const stat = await lstat(path).catch(() => undefined);
    if (stat === undefined || stat.isSymbolicLink() || (uid !== undefined && stat.uid !== uid)) continue;
    await rm(path, { recursive: true, force: true }).catch(() => undefined);
  }
}
