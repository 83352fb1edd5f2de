import { isSameOrBelow } from "./mount-request.js";
import type { ResolvedBindSource } from "./symlinked-root-exposure.js";

/**
 * The first requested path spelt inside the workspace (below it) whose real path leaves
 * the workspace's real path, or `null` (pure). A program of an earlier run could write
 * the workspace, so the link is its choice, not the caller's: the network-only scope
 * binds such a path back at its real path, under the private `/tmp`, `/run`,
 * `$XDG_RUNTIME_DIR` that hide host sockets (Docker, ssh-agent, D-Bus); the workspace
 * scope binds the real path at a destination that is then a dangling link, which
 * bwrap refuses anyway.
 */
export function findWorkspaceLinkEscape(
  sources: readonly ResolvedBindSource[],
  workspace: { readonly path: string; readonly real: string },
): ResolvedBindSource | null {
  for (const source of sources) {
    if (source.requested === workspace.path || !isSameOrBelow(workspace.path, source.requested)) continue;
    if (!isSameOrBelow(workspace.real, source.real)) return source;
  }
  return null;
}
