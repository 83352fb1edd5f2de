import { isSameOrBelow } from "./mount-request.js";
import type { ResolvedBindSource } from "./symlinked-root-exposure.js";

/** Whether `requested` lies below the workspace as spelt or below its real path: callers pass either. */
function isBelowWorkspace(
  workspace: { readonly path: string; readonly real: string },
  requested: string,
): boolean {
  return [workspace.path, workspace.real].some((dir) => requested !== dir && isSameOrBelow(dir, requested));
}

/**
 * The first requested path inside the workspace (below its spelling or its real path:
 * a cwd is often `process.cwd()`, a real path) whose real path leaves the workspace's
 * real path, or `null` (pure). A program of an earlier run could write the workspace,
 * so the link is its choice, not the caller's: the network-only scope binds such a
 * path back at its real path, under the private `/tmp`, `/run`, `$XDG_RUNTIME_DIR`
 * that hide host sockets (Docker, ssh-agent, D-Bus); the workspace scope binds the
 * real path at a destination that is then a dangling link, which bwrap refuses anyway.
 */
export function findWorkspaceLinkEscape(
  sources: readonly ResolvedBindSource[],
  workspace: { readonly path: string; readonly real: string },
): ResolvedBindSource | null {
  for (const source of sources) {
    if (!isBelowWorkspace(workspace, source.requested)) continue;
    if (!isSameOrBelow(workspace.real, source.real)) return source;
  }
  return null;
}
