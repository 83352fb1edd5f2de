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
 * real path and is refused in this scope, or `null` (pure). A program of an earlier run
 * could write the workspace, so the link is its choice, not the caller's. The workspace
 * scope binds the real path at a destination that is then a dangling link, which bwrap
 * refuses anyway: every such link is refused (`hidden` is `null`). The network-only
 * scope shows the host tree (`--bind / /`), so a link to an ordinary host directory (a
 * pnpm store, a checkout elsewhere) shows nothing new; only one whose real path lies
 * under a path that scope hides (`/tmp`, `/run`, `$XDG_RUNTIME_DIR`, the host's `/dev/shm`,
 * a private socket root: host sockets such as Docker's, ssh-agent's, D-Bus') would be bound
 * back there.
 */
export function findWorkspaceLinkEscape(
  sources: readonly ResolvedBindSource[],
  workspace: { readonly path: string; readonly real: string },
  hidden: readonly string[] | null,
): ResolvedBindSource | null {
  for (const source of sources) {
    if (!isBelowWorkspace(workspace, source.requested) || isSameOrBelow(workspace.real, source.real))
      continue;
    if (hidden === null || hidden.some((dir) => isSameOrBelow(dir, source.real))) return source;
  }
  return null;
}
