import path from "node:path";
import { isSameOrBelow } from "./mount-request.js";

/** A host directory bwrap shows at `dest` before the aliases are made. */
export interface BoundDirectory {
  /** Where the sandbox shows it, as spelt in the argv (the requested path). */
  readonly dest: string;
  /** The host directory bound there (a real path: bwrap resolves every source). */
  readonly source: string;
}

/** What `lstat` finds at a host path: a link, nothing, or anything else. */
export type HostEntry = "link" | "missing" | "present";

export interface LinkedAliasDestination {
  readonly alias: string;
  /** The requested path of the bind the alias lies in. */
  readonly bound: string;
  /** The host path of the first link on the way. */
  readonly link: string;
}

/** The bind whose tree holds `dest` (the deepest one: binds are made parents first), or `undefined`. */
function coveringBind(dest: string, binds: readonly BoundDirectory[]): BoundDirectory | undefined {
  let best: BoundDirectory | undefined;
  for (const bind of binds) {
    if (isSameOrBelow(bind.dest, dest) && (!best || bind.dest.length >= best.dest.length)) best = bind;
  }
  return best;
}

/**
 * The first alias whose destination bwrap would reach through a link of the host (pure;
 * `entryOf` is `lstat`), or `null`. bwrap makes an alias's missing destination (`mkdir -p`,
 * an empty file for a file) before it binds there, and it resolves that destination while
 * the host's root is still mounted at `/oldroot` beside the new one at `/newroot`. Below a
 * bind (the workspace, an extra path, an earlier alias) the destination is a host path, so
 * a link an earlier run left in the workspace (`<ws>/.tool -> ../../../../oldroot/etc`)
 * takes bwrap, with the runner's full rights, to create that path anywhere on the host.
 * A path the host itself resolves the same way could still mean something else to bwrap
 * (an absolute link, `..` above the new root), so every link on the way is refused; the
 * walk stops at the first missing component, below which bwrap creates plain directories
 * inside the bound one.
 */
export function findLinkedAliasDestination(
  aliases: readonly { readonly path: string; readonly target: string }[],
  binds: readonly BoundDirectory[],
  entryOf: (hostPath: string) => HostEntry,
): LinkedAliasDestination | null {
  const shown = [...binds];
  for (const alias of aliases) {
    const bind = coveringBind(alias.path, shown);
    shown.push({ dest: alias.path, source: alias.target });
    if (!bind) continue;
    let hostPath = bind.source;
    for (const part of path.relative(bind.dest, alias.path).split("/").filter(Boolean)) {
      hostPath = path.join(hostPath, part);
      const entry = entryOf(hostPath);
      if (entry === "link") return { alias: alias.path, bound: bind.dest, link: hostPath };
      if (entry === "missing") break;
    }
  }
  return null;
}
