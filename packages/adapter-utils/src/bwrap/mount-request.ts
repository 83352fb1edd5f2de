import type { LocalProcessSandboxAccess } from "../sandbox-options.js";

/** A host path to make visible in the sandbox at the same path. */
export interface MountRequest {
  readonly path: string;
  readonly access: LocalProcessSandboxAccess;
  /** What bwrap binds: the real path of `path` (bwrap `realpath`s every source); `path` when absent. */
  readonly source?: string;
  /**
   * Set on a path the program needs only to start (its executable's directory and package
   * root, Node's for the bridge), not one the caller asked for: the real directory of that
   * program. Read-only, and no mount of its own where a requested path already shows it or
   * shows the program (`orderMountRequests`).
   */
  readonly programDir?: string;
}

export function sourceOf(request: MountRequest): string {
  return request.source ?? request.path;
}

export function pathDepth(candidate: string): number {
  return candidate === "/" ? 0 : candidate.split("/").length - 1;
}

/** Ancestors of `candidate`, outermost first, `/` excluded. */
export function parentDirectories(candidate: string): string[] {
  const parts = candidate.split("/").filter(Boolean);
  const parents: string[] = [];
  for (let index = 1; index < parts.length; index += 1) parents.push(`/${parts.slice(0, index).join("/")}`);
  return parents;
}

export function isSameOrBelow(root: string, candidate: string): boolean {
  return root === "/" || candidate === root || candidate.startsWith(`${root}/`);
}

/**
 * Whether a program's start-up path needs no mount of its own: a requested path already
 * shows it, with the access the caller chose, or already shows the program itself.
 * Otherwise a program that lives in the workspace (`./script.sh`) would have its
 * directory bound read-only first, and with it the whole workspace when that is the
 * directory; and a package root above the workspace (a stray `package.json` in a home
 * directory) would show the program everything beside the workspace.
 */
function shownByRequest(request: MountRequest, asked: readonly MountRequest[]): boolean {
  const { programDir } = request;
  if (programDir === undefined) return false;
  return asked.some(
    (other) =>
      isSameOrBelow(other.path, request.path) ||
      isSameOrBelow(other.path, programDir) ||
      isSameOrBelow(sourceOf(other), programDir),
  );
}

/**
 * Upstream order, duplicates dropped (the first request for a path wins), then
 * sorted by depth (stable) so a parent is never mounted over a child mounted
 * earlier: an `ro` extra path inside an `rw` workspace stays read-only. A program's
 * start-up path that a requested path makes unneeded adds no mount (`shownByRequest`).
 */
export function orderMountRequests(requests: readonly MountRequest[]): MountRequest[] {
  const asked = requests.filter((request) => request.programDir === undefined);
  const seen = new Set<string>();
  const unique: MountRequest[] = [];
  for (const request of requests) {
    if (seen.has(request.path)) continue;
    if (shownByRequest(request, asked)) continue;
    seen.add(request.path);
    unique.push(request);
  }
  return unique
    .map((request, index) => ({ request, index }))
    .sort((a, b) => pathDepth(a.request.path) - pathDepth(b.request.path) || a.index - b.index)
    .map(({ request }) => request);
}
