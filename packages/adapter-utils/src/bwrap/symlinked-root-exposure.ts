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
 * every root in both its literal and its real spelling. `namedPlaces` are the directories
 * a caller may name to get the host's (`/tmp`, `/run`, `/var/run`, ...): one of them
 * that links to another (`/var/run -> /run`) is that other one named, no planted choice,
 * and is masked as naming it would be. Any other link there stays refused.
 */
export function findSymlinkedRootExposure(
  sources: readonly ResolvedBindSource[],
  roots: readonly string[],
  namedPlaces: readonly string[] = [],
): SymlinkedRootExposure | null {
  for (const source of sources) {
    if (source.real === source.requested) continue;
    if (namedPlaces.includes(source.requested) && namedPlaces.includes(source.real)) continue;
    for (const root of roots) {
      if (isSameOrBelow(source.real, root) || isSameOrBelow(root, source.real)) return { ...source, root };
    }
  }
  return null;
}
