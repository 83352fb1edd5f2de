import { lstat, readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { CreateosError } from "@paperclipai/errors";
import { holdStaging, releaseStaging } from "./held-staging.js";
import { nextTreePath, parseStagingName } from "./staging-name.js";

/**
 * Lets go of a tree this process took (its `.restore` claim, or a claim a promotion took) and
 * will not put back now: renamed `.released`, which any later sweep may claim whoever made it.
 * Left under a name of this process's pid, only this process's own later sweeps would take it
 * while it runs. Best effort: gone means a promotion took it; a failed rename keeps it ours.
 */
export async function letGo(tree: string, target: string): Promise<void> {
  await rename(tree, nextTreePath(target, tree, "released")).catch(() => undefined);
}

/**
 * For a promotion of `target`, once its staging exists and before it renames anything: takes
 * every `.restore` of the target this user owns (whoever claimed it) as this process's held
 * `.old`, so no restore can put it over what is promoted. Returns their paths. A claim that
 * cannot be taken (EIO, ENOSPC; gone is taken by another) would be put over the promotion: then
 * every tree taken is let go of and the promotion refused.
 */
async function takePendingRestores(target: string): Promise<string[]> {
  const dir = dirname(target);
  const uid = process.getuid?.();
  const taken: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (parseStagingName(target, name)?.kind !== "restore") continue;
    const path = join(dir, name);
    const stat = await lstat(path).catch(() => undefined);
    if (stat === undefined || stat.isSymbolicLink() || (uid !== undefined && stat.uid !== uid)) continue;
    // Named for the target's hash, as the claim is: wherever a claim could be made, it is taken.
    const mine = holdStaging(nextTreePath(target, path, "old"));
    const failure = await rename(path, mine).then(
      () => undefined,
      (error: NodeJS.ErrnoException) => error,
    );
    if (failure === undefined) {
      taken.push(mine);
      continue;
    }
    releaseStaging(mine);
    if (failure.code === "ENOENT") continue;
    await letGoAll(taken, target);
    throw refused("claim-not-taken", failure);
  }
  return taken;
}

async function letGoAll(trees: readonly string[], target: string): Promise<void> {
  for (const tree of trees) {
    await letGo(tree, target);
    releaseStaging(tree);
  }
}

function refused(reason: "claim-not-taken" | "directory-pending", cause?: Error): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_SYNC_RESTORE_PENDING",
    "CreateOS sync out did not replace a host tree that is being put back.",
    { details: { reason }, retryable: true, ...(cause === undefined ? {} : { cause }) },
  );
}

/**
 * Runs `promote` (a rename of a staging entry, which exists by now, to `target`) with every
 * pending restore of the target taken first: the trees taken are removed once it promoted, and
 * let go of for a later sweep if it failed. Both promotions, a directory's and a single file's,
 * go through here: a restore may rename a tree to the target (a directory always, a file where
 * the file system has no hard links), and this is what keeps it from replacing the promotion.
 * A file's promotion that took a directory refuses, as rename(2) over that directory would
 * (EISDIR): a file never replaces a directory.
 */
export async function supersedingPendingRestores(
  target: string,
  promoting: "file" | "directory",
  promote: () => Promise<void>,
): Promise<void> {
  const superseded = await takePendingRestores(target);
  if (promoting === "file") {
    const kinds = await Promise.all(superseded.map((tree) => lstat(tree).catch(() => undefined)));
    if (kinds.some((stat) => stat?.isDirectory() !== false)) {
      await letGoAll(superseded, target);
      throw refused("directory-pending");
    }
  }
  let promoted = false;
  try {
    await promote();
    promoted = true;
    for (const tree of superseded) await rm(tree, { recursive: true, force: true });
  } finally {
    if (!promoted) for (const tree of superseded) await letGo(tree, target);
    for (const tree of superseded) releaseStaging(tree);
  }
}
