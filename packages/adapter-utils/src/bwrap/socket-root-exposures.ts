import path from "node:path";
import { isSameOrBelow } from "./mount-request.js";

/** A host path shown in the sandbox at `dest` (the same path for an identity bind). */
export interface VisibleBind {
  readonly source: string;
  readonly dest: string;
}

/** Where a private socket root would show through a bind, and the host path behind it. */
export interface SocketRootExposure {
  /** The host directory that must stay hidden (a socket root, or the part of one a bind shows). */
  readonly hostPath: string;
  /** Where it appears inside the sandbox: the mount point of the mask. */
  readonly dest: string;
}

/**
 * Every place where one of the private socket roots (the directories holding the
 * proxy sockets of every run of this user, see `temp-dir/private-socket-roots.ts`)
 * would become visible through a bind the sandbox asked for: a bind of an ancestor
 * of a root (an extra path `/`, `/dev`, `/tmp`, a workspace at `/run/user/1000`)
 * shows the root below its destination; a bind of a path inside a root shows
 * part of it at the destination. The caller mounts an empty directory over each
 * `dest`, after the binds and before this run's own socket directory. Nested
 * results are dropped: masking the outer one hides them.
 */
export function socketRootExposures(
  binds: readonly VisibleBind[],
  roots: readonly string[],
): SocketRootExposure[] {
  const found: SocketRootExposure[] = [];
  for (const bind of binds) {
    for (const root of roots) {
      if (isSameOrBelow(bind.source, root)) {
        found.push({ hostPath: root, dest: path.join(bind.dest, path.relative(bind.source, root)) });
      } else if (isSameOrBelow(root, bind.source)) {
        found.push({ hostPath: bind.source, dest: bind.dest });
      }
    }
  }
  const unique = [...new Map(found.map((exposure) => [exposure.dest, exposure])).values()];
  return unique.filter(
    (exposure) =>
      !unique.some((other) => other.dest !== exposure.dest && isSameOrBelow(other.dest, exposure.dest)),
  );
}
