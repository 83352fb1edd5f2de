import path from "node:path";
import { type HostLayout, kindOf } from "./host-layout.js";
import {
  isSameOrBelow,
  type MountRequest,
  orderMountRequests,
  parentDirectories,
  sourceOf,
} from "./mount-request.js";
import { socketRootExposures } from "./socket-root-exposures.js";

export interface WorkspaceScopePlan {
  readonly layout: HostLayout;
  readonly systemPaths: readonly string[];
  /** Executable, Node, managed, extra and workspace paths, in upstream order. */
  readonly mounts: readonly MountRequest[];
  /** `--bind target alias` pairs, already validated. */
  readonly aliases: readonly { readonly path: string; readonly target: string }[];
  /**
   * This run's proxy directory: `source` (in a private socket root) is shown
   * read-only at `dest` (upstream's `<proxydir>`), last, over whatever is there.
   */
  readonly proxyMount: ProxyMount | null;
  /** Every private socket root of this user (`temp-dir/private-socket-roots.ts`), masked wherever a bind shows one. */
  readonly socketRoots: readonly string[];
}

export interface ProxyMount {
  readonly source: string;
  readonly dest: string;
}

interface Mounted {
  /** The host path bwrap binds (a real path: bwrap resolves every source). */
  readonly source: string;
  readonly dest: string;
  readonly access: "ro" | "rw";
}

/**
 * The fresh-root part of the bwrap argv. System paths are inspected with `lstat`:
 * a directory or file is bound, a symlink is recreated with its own target when
 * that target is visible in the sandbox (merged `/usr`: `/bin -> usr/bin`), else
 * the file it resolves to is bound in its place. Nothing is ever bound onto a
 * path that is a symlink inside the sandbox: such destinations are rewritten
 * through the link first.
 */
export function buildWorkspaceScopeArgs(plan: WorkspaceScopePlan): string[] {
  const args = ["--tmpfs", "/", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"];
  if (kindOf(plan.layout, "/proc/sys").kind === "directory") args.push("--ro-bind", "/proc/sys", "/proc/sys");
  const created = new Set(["/", "/proc", "/dev", "/tmp"]);
  const mounted: Mounted[] = [];
  const links = new Map<string, string>();

  const boundSystemDirs = plan.systemPaths.filter(
    (candidate) => kindOf(plan.layout, candidate).kind === "directory",
  );
  const nearestMount = (dest: string): Mounted | undefined => {
    let best: Mounted | undefined;
    for (const entry of mounted) {
      if (isSameOrBelow(entry.dest, dest) && (!best || entry.dest.length > best.dest.length)) best = entry;
    }
    return best;
  };
  const ensureParents = (dest: string) => {
    for (const parent of parentDirectories(dest)) {
      if (created.has(parent) || nearestMount(parent)) continue;
      args.push("--dir", parent);
      created.add(parent);
    }
  };
  const bind = (source: string, dest: string, access: "ro" | "rw") => {
    ensureParents(dest);
    args.push(access === "rw" ? "--bind" : "--ro-bind", source, dest);
    mounted.push({ source, dest, access });
    created.add(dest);
  };
  const throughLinks = (candidate: string): string => {
    for (const [link, target] of links) {
      if (isSameOrBelow(link, candidate)) return target + candidate.slice(link.length);
    }
    return candidate;
  };
  // A request already shown, with its access, by a mount above it needs no bind of its own:
  // only when that mount's tree holds this very source at `dest` (judged on real paths).
  const mountRequest = (request: MountRequest) => {
    const dest = throughLinks(request.path);
    const source = sourceOf(request);
    const covering = nearestMount(dest);
    if (
      covering?.access === request.access &&
      path.join(covering.source, path.relative(covering.dest, dest)) === source
    ) {
      return;
    }
    bind(source, dest, request.access);
  };

  for (const systemPath of plan.systemPaths) {
    const kind = kindOf(plan.layout, systemPath);
    if (kind.kind === "directory" || kind.kind === "file") bind(systemPath, systemPath, "ro");
    else if (kind.kind === "symlink" && kind.resolved !== null) {
      const resolved = kind.resolved;
      if (boundSystemDirs.some((dir) => isSameOrBelow(dir, resolved))) {
        ensureParents(systemPath);
        args.push("--symlink", kind.target, systemPath);
        created.add(systemPath);
        links.set(systemPath, resolved);
      } else {
        bind(resolved, systemPath, "ro");
      }
    }
  }

  for (const request of orderMountRequests(plan.mounts)) {
    if (kindOf(plan.layout, request.path).kind !== "missing") mountRequest(request);
  }
  for (const alias of plan.aliases) bind(alias.target, throughLinks(alias.path), "rw");
  // The fresh root hides every socket root (/dev and /tmp are the sandbox's own, /run is
  // not bound), unless a requested bind shows one again: mask those spots.
  for (const exposure of socketRootExposures(mounted, plan.socketRoots)) {
    // A root missing on the host (and not creatable: a read-only or missing base) holds nothing.
    if (kindOf(plan.layout, exposure.hostPath).kind !== "missing") args.push("--tmpfs", exposure.dest);
  }
  if (plan.proxyMount !== null) {
    bind(plan.proxyMount.source, throughLinks(plan.proxyMount.dest), "ro");
  }
  return args;
}
