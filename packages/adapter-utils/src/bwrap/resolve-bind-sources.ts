import { existsSync, lstatSync, realpathSync } from "node:fs";
import path from "node:path";
import { SandboxError } from "@paperclipai/errors";
import { assertAliasesStayInWorkspace, type ResolvedPathAlias } from "../options/validate-workspace-scope.js";
import { findLinkedAliasDestination, type HostEntry } from "./alias-destination-links.js";
import { type MountRequest, sourceOf } from "./mount-request.js";
import { findSymlinkedRootExposure, type ResolvedBindSource } from "./symlinked-root-exposure.js";
import { findWorkspaceLinkEscape } from "./workspace-link-escape.js";

/**
 * The path bwrap will really bind for `candidate`: bwrap `realpath`s every bind
 * source, so the exposure checks must judge that path, not the string asked for.
 * A path that cannot be resolved (missing, dangling) is returned unchanged: the
 * builders skip a missing path and bwrap refuses a dangling one.
 * A path that `access` does not reach (following links, as `realpath` does) is not
 * resolved: a failed `realpath` costs Node an error it builds and throws (about 25 µs
 * warm, several times a cold build's), where the `access` costs 3; a deny build meets
 * three such paths (`/run/user/<uid>` and two socket roots never made). Gone between
 * the two calls, the path comes back unchanged as before.
 */
export function realPathOf(candidate: string): string {
  if (!existsSync(candidate)) return candidate;
  try {
    return realpathSync.native(candidate);
  } catch {
    return candidate;
  }
}

/** How a build resolves a path: `realPathOf`, or a memo of it (`realPathMemo`). */
export type RealPath = (candidate: string) => string;

/**
 * `realPathOf` that resolves each path once. One synchronous step of a build (its mounts'
 * judgement) met the same places up to four times (`/tmp`, `/var/run`, the workspace), each
 * a fresh walk of `readlink`s a microsecond after the last; a memo lives only as long as
 * the step that made it, so nothing is kept from one build to the next.
 */
export function realPathMemo(): RealPath {
  const known = new Map<string, string>();
  return (candidate) => {
    let real = known.get(candidate);
    if (real === undefined) {
      real = realPathOf(candidate);
      known.set(candidate, real);
    }
    return real;
  };
}

/**
 * Real paths of the roots' bases (system directories such as `/dev/shm`, `/tmp`): resolved
 * once per process. A sandbox cannot make them stale: each directory between a writable bind
 * and a root is a mount point (`parent-pins.ts`), so `mv /run/user/0` (or `/run/shm`, where
 * `/dev/shm` links there) fails with `EBUSY` and no link takes its place; only a writable
 * `/dev` or `/` could swap the link `/dev/shm` itself, and those hand a root program the host.
 */
const realBases = new Map<string, string>();

/** Every root in its literal spelling and, where a component is a link (`/dev/shm -> /run/shm`), its real one. */
export function rootSpellings(roots: readonly string[]): string[] {
  const spellings = new Set(roots);
  for (const root of roots) {
    const base = path.dirname(root);
    let real = realBases.get(base);
    if (real === undefined) {
      real = realPathOf(base);
      realBases.set(base, real);
    }
    spellings.add(path.join(real, path.basename(root)));
  }
  return [...spellings];
}

/**
 * Refuses a requested bind source (extra or managed path, workspace, cwd, alias
 * target, executable directory) that resolves through a symlink to a place that
 * would show a private socket root.
 */
export function assertNoSymlinkedRootExposure(
  sources: readonly ResolvedBindSource[],
  roots: readonly string[],
  namedPlaces: readonly string[] = [],
): void {
  const found = findSymlinkedRootExposure(sources, rootSpellings(roots), namedPlaces);
  if (!found) return;
  throw new SandboxError(
    "ERR_SANDBOX_PATH_EXPOSES_SOCKET_ROOT",
    `Sandbox path "${found.requested}" resolves through a symlink to "${found.real}", which would show the private socket root "${found.root}".`,
    { details: { path: found.requested, realPath: found.real, socketRoot: found.root }, retryable: false },
  );
}

/**
 * Refuses a requested path spelt inside the workspace that resolves out of it: the link
 * is a planted choice, not the caller's (`workspace-link-escape.ts`).
 */
export function assertNoWorkspaceLinkEscape(
  sources: readonly ResolvedBindSource[],
  workspace: { readonly path: string; readonly real: string },
  hidden: readonly string[] | null,
): void {
  const found = findWorkspaceLinkEscape(sources, workspace, hidden);
  if (!found) return;
  throw new SandboxError(
    "ERR_SANDBOX_PATH_LINKS_OUT_OF_WORKSPACE",
    `Sandbox path "${found.requested}" lies in workspace "${workspace.path}" but resolves through a symlink to "${found.real}", outside it.`,
    {
      details: { path: found.requested, realPath: found.real, workspaceDir: workspace.path },
      retryable: false,
    },
  );
}

/** `lstat` as `findLinkedAliasDestination` reads it: a link, nothing there, or anything else. */
function hostEntry(hostPath: string): HostEntry {
  try {
    return lstatSync(hostPath).isSymbolicLink() ? "link" : "present";
  } catch {
    return "missing";
  }
}

/**
 * Refuses an alias whose destination lies in a bound host directory (the workspace, an
 * extra or managed path, an earlier alias) and passes a link on the way there: bwrap
 * follows it on the host when it creates the destination (`alias-destination-links.ts`).
 */
export function assertNoLinkedAliasDestination(
  aliases: readonly ResolvedPathAlias[],
  binds: readonly { readonly dest: string; readonly source: string }[],
): void {
  const found = findLinkedAliasDestination(aliases, binds, hostEntry);
  if (!found) return;
  throw new SandboxError(
    "ERR_SANDBOX_ALIAS_PATH_LINKED",
    `Sandbox path alias "${found.alias}" lies in "${found.bound}" on the way through the symlink "${found.link}", which bwrap would follow on the host to create it.`,
    { details: { path: found.alias, boundPath: found.bound, link: found.link }, retryable: false },
  );
}

export interface BindSourcesInput {
  readonly requests: readonly MountRequest[];
  readonly aliases: readonly ResolvedPathAlias[];
  /**
   * The network-only scope shows the host tree, where a link resolves as on the host:
   * its binds go to the real path itself. The workspace scope binds the real path at
   * the requested place.
   */
  readonly bindAtRealPath: boolean;
  readonly socketRoots: readonly string[];
  /**
   * The directories a caller may name to get the host's over the sandbox's private one
   * (`/tmp`, `/run`, `/var/run`, `$XDG_RUNTIME_DIR`): a link among them is not refused
   * (`findSymlinkedRootExposure`).
   */
  readonly namedPlaces: readonly string[];
  /** The workspace as requested: alias targets must stay inside its real path. */
  readonly workspaceDir: string;
  /**
   * Network-only scope: the host paths it hides (masked paths, `/dev/shm`, private socket
   * roots); a path in the workspace that links out is refused only when it leads under one.
   * `null` (workspace scope): every such link is refused.
   */
  readonly hiddenPaths: readonly string[] | null;
  /** The build step's memo (`realPathMemo`); absent, one of this call's own. */
  readonly realPath?: RealPath;
}

/**
 * Resolves every bind source (each path once) and refuses one that reaches a
 * private socket root through a symlink (`ERR_SANDBOX_PATH_EXPOSES_SOCKET_ROOT`), an
 * alias target that resolves outside the workspace (`ERR_SANDBOX_ALIAS_OUTSIDE_WORKSPACE`),
 * any other path inside it that does (`ERR_SANDBOX_PATH_LINKS_OUT_OF_WORKSPACE`; in the
 * network-only scope only toward a path that scope hides), and an alias whose destination
 * bwrap would reach through a link of a bound directory (`ERR_SANDBOX_ALIAS_PATH_LINKED`).
 */
export function resolveBindSources(input: BindSourcesInput): {
  requests: MountRequest[];
  aliases: ResolvedPathAlias[];
} {
  const realPathOnce = input.realPath ?? realPathMemo();
  const requests = input.requests.map((request): MountRequest => {
    const source = realPathOnce(request.path);
    if (input.bindAtRealPath) return { ...request, path: source };
    return source === request.path ? request : { ...request, source };
  });
  const aliases = input.aliases.map((alias) => ({ ...alias, target: realPathOnce(alias.target) }));
  assertNoSymlinkedRootExposure(
    [
      ...input.requests.map((request, index) => ({
        requested: request.path,
        real: sourceOf(requests[index]!),
      })),
      ...input.aliases.map((alias, index) => ({ requested: alias.target, real: aliases[index]!.target })),
    ],
    input.socketRoots,
    input.namedPlaces,
  );
  const workspace = { path: input.workspaceDir, real: realPathOnce(input.workspaceDir) };
  assertAliasesStayInWorkspace(
    workspace,
    input.aliases.map((alias, index) => ({ ...alias, realTarget: aliases[index]!.target })),
  );
  // A program's package root is a real path, but its directory is the executable's as spelt
  // (`executableReadPaths`). The network-only scope judges it too: bound back under a hidden
  // path it would show host sockets. The workspace scope does not refuse it: a hoisted `.bin`
  // link needs its real directory, and one a requested path shows gets no mount of its own.
  assertNoWorkspaceLinkEscape(
    input.requests.flatMap((request, index) =>
      request.programDir === undefined || input.hiddenPaths !== null
        ? [{ requested: request.path, real: sourceOf(requests[index]!) }]
        : [],
    ),
    workspace,
    // Compared with real paths: each hidden path in its spelling and its real one (`/var/run -> /run`).
    input.hiddenPaths && [...new Set(input.hiddenPaths.flatMap((dir) => [dir, realPathOnce(dir)]))],
  );
  // Only the workspace scope has aliases; its binds are shown at their requested paths.
  if (!input.bindAtRealPath) {
    assertNoLinkedAliasDestination(
      aliases,
      input.requests.map((request, index) => ({ dest: request.path, source: sourceOf(requests[index]!) })),
    );
  }
  return { requests, aliases };
}
