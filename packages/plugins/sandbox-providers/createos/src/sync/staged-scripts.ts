/**
 * The sandbox-side scripts of a sync in's staged tree. A step its client abandoned (the host's
 * deadline, shutdown) may still run in CreateOS while the sync removes what it staged, so the
 * two claim what they touch with a rename first: whichever renames the staged tree first owns
 * it, and the other leaves it (and the target) alone.
 */

/**
 * Extracts the archive (`$1`) and promotes it (`$4`: the mode, or empty). Into the workspace
 * root (`$3`, which cannot be replaced) it extracts in place; elsewhere into `$2`, which is
 * claimed (renamed to `$2.promoting`) before the target is removed and replaced by it: a
 * removal of `$2` that comes first makes the claim fail with the target untouched. Once claimed,
 * the tree is no longer under a name the sync's discard removes, so a replacement that fails
 * (a target holding what the sandbox user cannot remove, a mount point) removes it on the way
 * out instead of leaving it beside the target.
 */
export function extractScript(intoRoot: boolean): string {
  const lines = intoRoot
    ? [
        "set -e",
        'tar -x -f "$1" -C "$3" --no-same-owner',
        'rm -f -- "$1"',
        'if [ -n "$4" ]; then chmod "$4" "$3"; fi',
      ]
    : [
        "set -e",
        'mkdir -- "$2"',
        'tar -x -f "$1" -C "$2" --no-same-owner',
        'rm -f -- "$1"',
        'if [ -n "$4" ]; then chmod "$4" "$2"; fi',
        'mv -- "$2" "$2.promoting"',
        "trap 'rm -rf -- \"$2.promoting\"' EXIT",
        'rm -rf -- "$3"',
        'mv -- "$2.promoting" "$3"',
        "trap - EXIT",
      ];
  return lines.join("\n");
}

/**
 * Removes each staged path given, claiming it with a rename first: one a promotion has claimed
 * already (see `extractScript`) is no longer there and is left to it.
 */
export const DISCARD_SCRIPT =
  'for p; do /bin/mv -- "$p" "$p.discarded" 2>/dev/null && /bin/rm -rf -- "$p.discarded"; done; exit 0';
