import type { LocalProcessSandboxAccess } from "../sandbox-options.js";

/** A host path to make visible in the sandbox at the same path. */
export interface MountRequest {
  readonly path: string;
  readonly access: LocalProcessSandboxAccess;
  /** What bwrap binds: the real path of `path` (bwrap `realpath`s every source); `path` when absent. */
  readonly source?: string;
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
 * Upstream order, duplicates dropped (the first request for a path wins), then
 * sorted by depth (stable) so a parent is never mounted over a child mounted
 * earlier: an `ro` extra path inside an `rw` workspace stays read-only.
 */
export function orderMountRequests(requests: readonly MountRequest[]): MountRequest[] {
  const seen = new Set<string>();
  const unique: MountRequest[] = [];
  for (const request of requests) {
    if (seen.has(request.path)) continue;
    seen.add(request.path);
    unique.push(request);
  }
  return unique
    .map((request, index) => ({ request, index }))
    .sort((a, b) => pathDepth(a.request.path) - pathDepth(b.request.path) || a.index - b.index)
    .map(({ request }) => request);
}
