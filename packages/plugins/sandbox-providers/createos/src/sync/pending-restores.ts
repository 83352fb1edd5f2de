import { lstat, readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { holdStaging, releaseStaging } from "./held-staging.js";
import { newTreePath, parseStagingName } from "./staging-name.js";

/**
 * Lets go of a tree this process took (its `.restore` claim, or a claim a promotion took) and
 * will not put back now: renamed `.released`, which any later sweep may claim whoever made it.
 * Left under a name of this process's pid, only this process's own later sweeps would take it
 * while it runs. Best effort: gone means a promotion took it; a failed rename keeps it ours.
 */
export async function letGo(tree: string, target: string): Promise<void> {
  await rename(tree, newTreePath(target, "released")).catch(() => undefined);
}

/**
 * For a promotion of `target`, once its staging exists and before it renames anything: takes
 * every `.restore` of the target this user owns (whoever claimed it) as this process's held
 * `.old`, so no restore can put it over what is promoted. Returns their paths.
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
    const mine = holdStaging(newTreePath(target, "old"));
    const moved = await rename(path, mine).then(
      () => true,
      () => false,
    );
    if (moved) taken.push(mine);
    else releaseStaging(mine);
  }
  return taken;
}

/**
 * Runs `promote` (a rename of a staging entry, which exists by now, to `target`) with every
 * pending restore of the target taken first: the trees taken are removed once it promoted, and
 * let go of for a later sweep if it failed. Both promotions, a directory's and a single file's,
 * go through here: a restore may rename a tree to the target (a directory always, a file where
 * the file system has no hard links), and this is what keeps it from replacing the promotion.
 */
export async function supersedingPendingRestores(
  target: string,
  promote: () => Promise<void>,
): Promise<void> {
  const superseded = await takePendingRestores(target);
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
