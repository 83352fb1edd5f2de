import { isSameOrBelow } from "./mount-request.js";

/** A path the caller asked bwrap to bind, and the real path bwrap will bind (it `realpath`s every source). */
export interface ResolvedBindSource {
  readonly requested: string;
  readonly real: string;
}

export interface SymlinkedRootExposure extends ResolvedBindSource {
  /** The private socket root the real path would show (its ancestor, or the root itself). */
  readonly root: string;
}

/**
 * The first requested path that resolves through a symlink to a place that would
 * show a private socket root (an ancestor of a root such as `/`, `/tmp` or
 * `/run/user/<uid>`, or a path inside one), or `null`. A path that is its own real
 * path is not judged here: the argv builders mask the roots it shows, as before.
 * A link's target is a planted choice (an earlier network-only run has the host
 * tree writable), so such a path is refused rather than masked. `roots` holds
 * every root in both its literal and its real spelling.
 */
export function findSymlinkedRootExposure(
  sources: readonly ResolvedBindSource[],
  roots: readonly string[],
): SymlinkedRootExposure | null {
  for (const source of sources) {
    if (source.real === source.requested) continue;
    for (const root of roots) {
      if (isSameOrBelow(source.real, root) || isSameOrBelow(root, source.real)) return { ...source, root };
    }
  }
  return null;
}
