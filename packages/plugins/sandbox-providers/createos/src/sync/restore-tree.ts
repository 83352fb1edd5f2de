import { link, lstat, rename, rm, unlink } from "node:fs/promises";
import { basename } from "node:path";
import { holdStaging, releaseStaging } from "./held-staging.js";
import { letGo } from "./pending-restores.js";
import { restoreWindow } from "./restore-window.js";
import { nextTreePath } from "./staging-name.js";
import { supersedes } from "./tree-order.js";

/**
 * Putting a dead worker's replaced tree (its `.old`) back as its missing target must never
 * replace what another process promoted to that target meanwhile. Node has no
 * renameat2(RENAME_NOREPLACE), and nothing else moves a name into place only if the place is free:
 * - a file is put back with link(2), which never replaces anything, then its old name unlinked;
 * - a directory cannot be (no hard links to directories, and mkdir cannot adopt a tree), and
 *   rename(2) fails over a non-empty directory or a non-directory but replaces an empty
 *   directory, such as an empty tree just promoted; nor can a file where the file system has no
 *   hard links (vfat, exFAT, some FUSE and SMB mounts), and rename(2) replaces a file. So
 *   restores and promotions exclude each other through names instead. The restore (1) claims the
 *   tree by renaming it to a `.restore` of its own (one rename: exactly one process gets it),
 *   (2) gives up if any other staging entry of the target may belong to a running sync, or a
 *   tree of the target appeared since the sweep first listed them, (3) gives up if the target
 *   exists, then (4) renames. A promotion, once its staging exists and before it renames
 *   anything, takes every `.restore` of its target for itself. A promotion that renames between
 *   (3) and (4) either looked for claims after (1), took this one, and (4) finds nothing; or
 *   looked before (1), and then its staging existed from before (1) until after (3), so (2) saw
 *   it and gave up. One that looked before (1) and renamed before (3) made the target exist at
 *   (3), unless another worker moved it aside again (and was killed: a live one's staging is
 *   seen at (2)): its tree appeared since the listing, and (2) gave up.
 * Where there are no hard links, a file is renamed into place at (4): a file the user (no sync)
 * wrote at the target between (3) and (4) is replaced. No exchange of names can stop a process
 * that takes no part in it; that window is a few system calls wide.
 * Promotions by builds that predate this exchange take no claims: one that both staged and
 * promoted between (2) and (4) is replaced if it promoted an empty directory, or a file where
 * there are no hard links.
 */
export type RestoreOutcome =
  /** The tree is the target again. */
  | "restored"
  /** The target exists, of the tree's kind: the tree, older than it, was removed. */
  | "superseded"
  /** Another process claimed the tree first (another sweep, or a promotion superseding it). */
  | "taken"
  /**
   * A sync to the target may be running, or the tree could not be claimed or the target not
   * looked up, or one of another kind is there: the tree is left (let go of as a `.released`, or
   * where it was) for a later sweep.
   */
  | "deferred";

/** Renames `from` to `to`: undefined once done, else the error's code. */
async function renameFailure(from: string, to: string): Promise<string | undefined> {
  return rename(from, to).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error.code ?? "EUNKNOWN",
  );
}

/** "unknown" when the lookup itself failed (EIO, EACCES…): nothing may be removed on a guess. */
async function presence(path: string): Promise<"present" | "missing" | "unknown"> {
  return lstat(path).then(
    () => "present" as const,
    (error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? "missing" : "unknown"),
  );
}

/**
 * Puts `tree` (a stale `.old`, `.restore` or `.released` beside `target`) back as `target`, found
 * missing. `othersMayRun(claim)` tells whether any staging entry of the target but the claim
 * named `claim` may belong to a running sync, or a tree of the target appeared since the sweep
 * listed them.
 */
export async function restoreTree(
  tree: string,
  target: string,
  othersMayRun: (claim: string) => Promise<boolean>,
): Promise<RestoreOutcome> {
  const claim = holdStaging(nextTreePath(target, tree, "restore"));
  try {
    // Gone means another process took it; any other failure (EIO, a read-only file system)
    // leaves the tree where it is, for a later sweep: never "taken", which removes it.
    const failure = await renameFailure(tree, claim);
    if (failure === "ENOENT") return "taken";
    if (failure !== undefined) return "deferred";
    const outcome = await restoreClaimed(claim, target, othersMayRun);
    if (outcome === "deferred") await letGo(claim, target);
    return outcome;
  } finally {
    releaseStaging(claim);
  }
}

async function restoreClaimed(
  claim: string,
  target: string,
  othersMayRun: (claim: string) => Promise<boolean>,
): Promise<RestoreOutcome> {
  await restoreWindow.afterClaim?.();
  if (await othersMayRun(basename(claim))) return "deferred";
  const found = await presence(target);
  if (found === "unknown") return "deferred";
  if (found === "missing") {
    await restoreWindow.beforePlace?.();
    const outcome = await place(claim, target);
    if (outcome !== "superseded") return outcome;
  }
  // Something is at the target: it replaced the tree only if of its kind (see `supersedes`).
  const [claimed, now] = await Promise.all(
    [lstat(claim), lstat(target)].map((found) => found.catch(() => undefined)),
  );
  if (claimed === undefined) return "taken";
  if (!supersedes(now, claimed)) return "deferred";
  await rm(claim, { recursive: true, force: true }).catch(() => undefined);
  return "superseded";
}

/**
 * The last step: moves the claimed tree to `target` without ever replacing what is there;
 * "superseded" here only says that something is there.
 */
async function place(claim: string, target: string): Promise<RestoreOutcome> {
  const stat = await lstat(claim).catch(() => undefined);
  if (stat === undefined) return "taken";
  try {
    if (stat.isDirectory() || !(await linked(claim, target))) await rename(claim, target);
    return "restored";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "taken";
    if (code === "EEXIST" || code === "ENOTEMPTY" || code === "ENOTDIR" || code === "EISDIR")
      return "superseded";
    return "deferred";
  }
}

/** What link(2) fails with where the file system has no hard links, or refuses this one. */
const NO_HARD_LINK = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV", "EMLINK"]);

/**
 * Puts the claimed file back with a hard link, its claim then unlinked (a promotion that took the
 * claim meanwhile removes it). False where no hard link can be made: then it is renamed, as a
 * directory is, under the same exchange of claims.
 */
async function linked(claim: string, target: string): Promise<boolean> {
  try {
    await link(claim, target);
  } catch (error) {
    if (NO_HARD_LINK.has((error as NodeJS.ErrnoException).code ?? "")) return false;
    throw error;
  }
  await unlink(claim).catch(() => undefined);
  return true;
}
