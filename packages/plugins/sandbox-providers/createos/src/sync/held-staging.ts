import { basename } from "node:path";

/**
 * The staging names this process is using now (process-wide, should the module be loaded twice):
 * a restarted container's worker often has its predecessor's pid, so an entry with this pid,
 * namespace and boot is this process's only if it is listed here.
 */
const LIVE_KEY = Symbol.for("@paperclipai/plugin-createos/live-staging");
const shared = globalThis as Record<symbol, Set<string> | undefined>;
const live: Set<string> = shared[LIVE_KEY] ?? new Set();
shared[LIVE_KEY] = live;

/** A staging entry's name without the suffix of the tree it may hold (`.old`, `.restore`). */
function heldName(path: string): string {
  return basename(path).replace(/\.(old|restore)$/, "");
}

/**
 * Marks `path` (and its `.old` and `.restore`) as in use by this process: no sweep removes it
 * until released. Kept by name (its random part makes it unique), not by path: the same target
 * reached through another spelling of its directory (a symlinked parent) is still this process's.
 */
export function holdStaging(path: string): string {
  live.add(heldName(path));
  return path;
}

export function releaseStaging(path: string): void {
  live.delete(heldName(path));
}

/** Whether this process is using the staging entry named `name`. */
export function isHeld(name: string): boolean {
  return live.has(heldName(name));
}
