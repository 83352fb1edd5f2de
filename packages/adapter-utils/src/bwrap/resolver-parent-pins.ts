import path from "node:path";
import { isSameOrBelow, parentDirectories } from "./mount-request.js";
import type { VisibleBind } from "./socket-root-exposures.js";

/**
 * Each directory a writable bind shows between its own root and one of `targets` (the
 * real paths of the resolver files), bound onto itself with that bind's access (pure),
 * to follow right after that bind. The caller shows each file read-only again, but a
 * mount on a file does not keep its directories in place: Linux renames a directory that
 * merely holds a mount point, so a root runner's program with a writable `/run` could
 * `mv /run/resolvconf /run/resolvconf.old`, make a directory of its own there and write
 * the name servers of every later run's proxy into it. A directory that is a mount point
 * itself is neither renamed nor removed (`EBUSY`); the program still writes in it as the
 * bind allows.
 */
export function resolverParentPins(
  bind: VisibleBind & { readonly access: "ro" | "rw" },
  targets: readonly string[],
): string[] {
  if (bind.access !== "rw") return [];
  const dirs = new Set(
    targets.flatMap((target) =>
      parentDirectories(target).filter((dir) => dir !== bind.source && isSameOrBelow(bind.source, dir)),
    ),
  );
  return [...dirs].flatMap((dir) => ["--bind", dir, path.join(bind.dest, path.relative(bind.source, dir))]);
}
