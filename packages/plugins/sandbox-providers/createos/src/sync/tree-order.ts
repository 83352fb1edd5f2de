import type { Stats } from "node:fs";
import type { LeftTarget } from "./staging-name.js";

/**
 * Pure: of the hidden trees of one missing target, the one that certainly left it last, or
 * undefined when that cannot be told. A tree left it last for certain only if it left after every
 * other had (its `from` past their `until`, both read on the same clock): two promotions moving
 * the target aside at once, a mover killed before it noted `until`, a tree named by a build that
 * noted neither, times read on two machines' clocks: then no tree is put back and none removed.
 * Keeping a hidden copy too many is safe; putting an older tree back and removing the newest
 * loses the user's data.
 *
 * A tree without `until` (its mover killed between its two renames, so dead) is put back only
 * when its `from` is past every other's `until`; nothing orders any other tree after it, since
 * nothing bounds when it left: not its mover's death (no trace of when it died survives), nor its
 * ctime (coarse, and not updated by a rename on every file system). Each order is possible with
 * the same names: a mover reads its `from`, stalls (a blocked event loop, a stopped process),
 * another worker moves the target aside and is killed, a third promotes, and the first renames
 * last; or the first renames at once, is killed, and the others follow. The wait this costs
 * ends with the next sync out to the target: its promotion makes every hidden tree removable.
 */
export function newestTree<T extends { readonly left: LeftTarget | undefined }>(
  trees: readonly T[],
): T | undefined {
  if (trees.length === 1) return trees[0];
  return trees.find(
    (tree) =>
      tree.left !== undefined &&
      trees.every(
        (other) =>
          other === tree ||
          (other.left?.until !== undefined &&
            tree.left !== undefined &&
            other.left.clock === tree.left.clock &&
            tree.left.from > other.left.until),
      ),
  );
}

/**
 * Pure: whether `target`, found where a hidden tree of it was, has replaced that tree, which may
 * then be removed. Only one of its kind: a directory sync replaces a file, a file sync never a
 * directory (rename fails with EISDIR), so a file where a directory is hidden (or the reverse)
 * says nothing of which is newer.
 */
export function supersedes(target: Stats | undefined, tree: Stats): boolean {
  return target !== undefined && target.isDirectory() === tree.isDirectory();
}
