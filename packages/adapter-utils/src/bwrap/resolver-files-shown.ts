import path from "node:path";
import { SandboxError } from "@paperclipai/errors";
import { type HostLayout, kindOf } from "./host-layout.js";
import { isSameOrBelow } from "./mount-request.js";
import { type SocketRootExposure, socketRootExposures, type VisibleBind } from "./socket-root-exposures.js";
import { RESOLVER_FILES } from "./system-paths.js";

/** The real path of a resolver file, or `null` when it is missing or a dangling link (pure). */
export function resolverTarget(layout: HostLayout, file: string): string | null {
  const kind = kindOf(layout, file);
  return kind.kind === "file" ? (kind.real ?? file) : kind.kind === "symlink" ? kind.resolved : null;
}

/** The real paths of the resolver files present on the host (pure). */
export function resolverTargets(layout: HostLayout): string[] {
  return RESOLVER_FILES.flatMap((file) => resolverTarget(layout, file) ?? []);
}

/**
 * Where a writable bind the caller asked for shows one of the files the host's proxy
 * resolver reads (`RESOLVER_FILES`, by their real paths) again, writable (pure). A root
 * runner's program owns a root-owned file there, caps dropped or not: on a host whose
 * `/etc/resolv.conf` links into `/run` (resolvconf, NetworkManager), a workspace `/run`
 * let it name the name servers of every later run's proxy, which then sent the allowed
 * names to addresses it chose. The caller shows each one read-only again at `dest`, and
 * makes the directories above it mount points right after the bind (`parentPins`):
 * a read-only file alone moves with a renamed directory.
 */
export function writableResolverFiles(
  layout: HostLayout,
  binds: readonly (VisibleBind & { readonly access: "ro" | "rw" })[],
): SocketRootExposure[] {
  const targets = resolverTargets(layout);
  // The same geometry as a socket root's: a bind of an ancestor shows the file below its destination.
  const shown = socketRootExposures(
    binds.filter((bind) => bind.access === "rw"),
    targets,
  );
  return shown.filter((exposure) => targets.includes(exposure.hostPath));
}

/**
 * Refuses, for a root runner, a writable bind that shows the directory holding a resolver
 * file that is a link (`/etc/resolv.conf -> ../run/systemd/resolve/stub-resolv.conf`, as
 * on every systemd-resolved host), or holding any link its target passes through, or a
 * directory above one: a mount cannot sit on a link, so no read-only bind keeps the
 * program (a root runner's owns the host's `/etc`) from pointing it at a file of its own,
 * which every later run's proxy then reads for its name servers; and no mount keeps it
 * from renaming a directory above the link with the link in it. Another runner's program
 * writes none of root's files or directories, so nothing is refused for it. The file a
 * link names, and the directories above that file, are kept by `writableResolverFiles`
 * and `parentPins`.
 */
export function assertNoResolverLinkShownWritable(
  layout: HostLayout,
  binds: readonly (VisibleBind & { readonly access: "ro" | "rw" })[],
  runnerIsRoot: boolean,
): void {
  if (!runnerIsRoot) return;
  for (const file of RESOLVER_FILES) {
    const kind = kindOf(layout, file);
    if (kind.kind !== "symlink") continue;
    // Each link on the way counts: Debian's `/etc/resolvconf/run -> /run/resolvconf` too.
    const shown = (kind.links ?? [file]).flatMap((link) => {
      const bind = binds.find(
        (each) => each.access === "rw" && isSameOrBelow(each.source, path.dirname(link)),
      );
      return bind === undefined ? [] : [{ bind, link }];
    });
    if (shown.length === 0) continue;
    const { bind, link } = shown[0]!;
    throw new SandboxError(
      "ERR_SANDBOX_RESOLVER_LINK_WRITABLE",
      `Sandbox path "${bind.source}" is asked for writable and holds "${link}", a link to the resolver file the host's proxy reads: the program could point it at a file of its own for every later run. Ask for "${bind.source}" read-only and for the directories in it the program writes.`,
      { details: { path: bind.source, link }, retryable: false },
    );
  }
}
