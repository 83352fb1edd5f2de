import { readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { errnoCode } from "./os-error.js";
import { temporaryNamePid } from "./temporary-name.js";

/** Whether a process with this pid exists (EPERM means it exists under another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) !== "ESRCH";
  }
}

/**
 * Removes the temporary files of `name` left in `directory` by processes that
 * no longer exist (a crash between create and rename). Files of live
 * processes, this one included, are left alone. Best effort: a failure to list
 * or remove is not an error, since the write that follows does not depend on it.
 * Returns the names removed.
 */
export async function sweepStaleTemporaries(directory: string, name: string): Promise<string[]> {
  return sweepStaleTemporariesSync(directory, name);
}

/** `sweepStaleTemporaries` in one go: one small directory listing, on the state-write path. */
export function sweepStaleTemporariesSync(directory: string, name: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(directory);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    const pid = temporaryNamePid(name, entry);
    if (pid === undefined || pid === process.pid || isProcessAlive(pid)) continue;
    try {
      unlinkSync(join(directory, entry));
      removed.push(entry);
    } catch {
      // Another sweeper got there first, or it is not ours to remove.
    }
  }
  return removed;
}
