import type { Stats } from "node:fs";
import type { LeftTarget } from "./staging-name.js";

/**
 * Pure: of the hidden trees of one missing target, the one that certainly left it last, or
 * undefined when that cannot be told. A tree left it last for certain only if it left after every
 * other had (its `from` past their `until`): two promotions moving the target aside at once, a
 * mover killed before it noted `until`, a tree named by a build that noted neither: then no tree
 * is put back and none removed. Keeping a hidden copy too many is safe; putting an older tree
 * back and removing the newest loses the user's data.
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
          (other.left?.until !== undefined && tree.left !== undefined && tree.left.from > other.left.until),
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
