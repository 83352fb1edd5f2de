import path from "node:path";
import { type HostLayout, kindOf } from "./host-layout.js";
import { isSameOrBelow, parentDirectories } from "./mount-request.js";
import { OWN_TREES } from "./own-trees.js";
import { resolverTargets } from "./resolver-files-shown.js";
import type { VisibleBind } from "./socket-root-exposures.js";

/**
 * The host places a writable bind must not let the program move (pure): the real paths of
 * the resolver files the host's proxy reads, and every private socket root present on the
 * host (each spelling; one missing holds nothing, and `createExposedSocketRoots` has made
 * those a requested bind shows).
 */
export function pinTargets(layout: HostLayout, socketRoots: readonly string[]): string[] {
  return [
    ...resolverTargets(layout),
    ...socketRoots.filter((root) => kindOf(layout, root).kind === "directory"),
  ];
}

/**
 * Each directory a writable bind shows between its own root and one of `targets`
 * (`pinTargets`), bound onto itself with that bind's access (pure), to follow right after
 * that bind. What sits at a target is shown read-only again (a resolver file) or masked (a
 * socket root), but a mount does not keep its directories in place: Linux renames a
 * directory that merely holds a mount point. A root runner's program with a writable `/run`
 * could `mv /run/resolvconf /run/resolvconf.old`, make a directory of its own there and write
 * the name servers of every later run's proxy into it; or `mv /run/shm /run/shm.old` (where
 * `/dev/shm` links there) or `/run/user/0`, and make an empty one: every later run of the
 * runner's uid then made its socket root, proxy sockets and the private copies of the native
 * binaries the host executes in that directory, which the program saw and wrote. A directory
 * that is a mount point itself is neither renamed nor removed (`EBUSY`); the program still
 * writes in it as the bind allows. The sandbox's own trees (`/dev`, `/proc`, `/sys`) are
 * never pinned: a host directory bound there would cover them.
 */
export function parentPins(
  bind: VisibleBind & { readonly access: "ro" | "rw" },
  targets: readonly string[],
): string[] {
  if (bind.access !== "rw") return [];
  const dirs = new Set(
    targets.flatMap((target) =>
      parentDirectories(target).filter(
        (dir) =>
          dir !== bind.source &&
          isSameOrBelow(bind.source, dir) &&
          !OWN_TREES.some((tree) => isSameOrBelow(tree, dir)),
      ),
    ),
  );
  return [...dirs].flatMap((dir) => ["--bind", dir, path.join(bind.dest, path.relative(bind.source, dir))]);
}
