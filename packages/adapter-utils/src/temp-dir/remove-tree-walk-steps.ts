import { rename } from "node:fs/promises";
import { SandboxError } from "@paperclipai/errors";

/**
 * The steps of `removeTreeNoFollow`'s walk that concern rounds and concurrency, not one
 * entry: moving a directory up to the top for a later round, settling sibling removals
 * (at most N at a time) before a descriptor closes, and the error when the walk
 * ends with entries left.
 */

export const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/** How a rename to the top directory fails when the name there is taken: the next name. */
const NAME_TAKEN = new Set(["ENOTEMPTY", "EEXIST", "EISDIR", "ENOTDIR"]);

/**
 * The state of one walk: its top directory (a descriptor path), open handles, moved
 * entries, and directories that could not move and were left this round past the caps.
 */
export interface Walk {
  readonly top: string;
  open: number;
  moved: number;
  deferred: number;
}

/**
 * Moves `entry` to the top directory for a later round; `true` also when it is gone.
 * `false` leaves it to be walked where it is, within `MAX_UNMOVABLE_DIRECTORIES` more
 * descriptors: a mount point (`EBUSY`) or an entry of another filesystem than the top
 * (`EXDEV`) cannot move there, which must not end the cleanup; eight names taken in a
 * row neither.
 */
export async function movedToTop(entry: Buffer, walk: Walk): Promise<boolean> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    walk.moved += 1;
    try {
      await rename(entry, `${walk.top}/.paperclip-walk-${walk.moved}`);
      return true;
    } catch (error) {
      const code = codeOf(error) ?? "";
      if (code === "ENOENT") return true;
      if (code === "EBUSY" || code === "EXDEV") return false;
      if (!NAME_TAKEN.has(code)) throw error;
    }
  }
  return false;
}

/**
 * Runs `task` on every item, at most `limit` at a time: a directory's entries (one pending
 * removal each would hold the host's heap for every entry a program left), and the top
 * level's, which cannot be moved up. A failure stops no other task: all settle, then the
 * first failure is thrown. A sibling removal still running works through its parent's
 * descriptor (`/proc/self/fd/<n>/…`): were the parent closed at the first failure, `<n>`
 * could be reused by an unrelated open and a removal would act inside that directory. A
 * retry pass must not start beside the first one either.
 */
export async function eachAtMost<T>(
  limit: number,
  items: readonly T[],
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const worker = async (): Promise<void> => {
    while (next < items.length) await task(items[next++]!).catch((error: unknown) => failures.push(error));
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failures.length > 0) throw failures[0];
}

/** The walk ended with entries still at the top (its round cap, or something kept adding to the tree). */
export function cleanupUnfinished(dir: string, rounds: number, left: number): SandboxError {
  return new SandboxError(
    "ERR_SANDBOX_CLEANUP_UNFINISHED",
    `Sandbox cleanup gave up on "${dir}" after ${rounds} rounds with ${left} entries left.`,
    { details: { dir, rounds, entriesLeft: left }, retryable: true },
  );
}
