import { type HostLayout, kindOf } from "./host-layout.js";
import { type SocketRootExposure, socketRootExposures, type VisibleBind } from "./socket-root-exposures.js";
import { RESOLVER_FILES } from "./system-paths.js";

/**
 * Where a writable bind the caller asked for shows one of the files the host's proxy
 * resolver reads (`RESOLVER_FILES`, by their real paths) again, writable (pure). A root
 * runner's program owns a root-owned file there, caps dropped or not: on a host whose
 * `/etc/resolv.conf` links into `/run` (resolvconf, NetworkManager), a workspace `/run`
 * let it name the name servers of every later run's proxy, which then sent the allowed
 * names to addresses it chose. The caller shows each one read-only again at `dest`.
 */
export function writableResolverFiles(
  layout: HostLayout,
  binds: readonly (VisibleBind & { readonly access: "ro" | "rw" })[],
): SocketRootExposure[] {
  const targets = RESOLVER_FILES.flatMap((file) => {
    const kind = kindOf(layout, file);
    return kind.kind === "file" ? [file] : kind.kind === "symlink" && kind.resolved ? [kind.resolved] : [];
  });
  // The same geometry as a socket root's: a bind of an ancestor shows the file below its destination.
  const shown = socketRootExposures(
    binds.filter((bind) => bind.access === "rw"),
    targets,
  );
  return shown.filter((exposure) => targets.includes(exposure.hostPath));
}
