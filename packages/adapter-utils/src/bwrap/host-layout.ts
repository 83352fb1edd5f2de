import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { linkChain } from "./link-chain.js";

/** What a host path is, as `lstat` sees it (symlinks are not followed). */
export type HostPathKind =
  | { readonly kind: "missing" }
  | { readonly kind: "directory" }
  /** `real`: its real path, when a directory above it is a link (`/etc -> private/etc`). */
  | { readonly kind: "file"; readonly real?: string }
  /**
   * `target` is the link text (kept relative so a recreated link means the same); `resolved` is null when dangling;
   * `links`, every link met on the way (`linkChain`), the path itself first.
   */
  | {
      readonly kind: "symlink";
      readonly target: string;
      readonly resolved: string | null;
      readonly links?: readonly string[];
    };

export type HostLayout = ReadonlyMap<string, HostPathKind>;

const MISSING: HostPathKind = { kind: "missing" };

export function kindOf(layout: HostLayout, candidate: string): HostPathKind {
  return layout.get(candidate) ?? MISSING;
}

function inspectPath(candidate: string): HostPathKind {
  try {
    // A missing path is common (a socket root never made): no thrown error, which costs microseconds.
    const stats = lstatSync(candidate, { throwIfNoEntry: false });
    if (stats === undefined) return MISSING;
    if (stats.isSymbolicLink()) {
      let resolved: string | null = null;
      try {
        resolved = realpathSync.native(candidate);
      } catch {}
      return { kind: "symlink", target: readlinkSync(candidate), resolved, links: linkChain(candidate) };
    }
    if (stats.isDirectory()) return { kind: "directory" };
    const real = realpathSync.native(candidate);
    return real === candidate ? { kind: "file" } : { kind: "file", real };
  } catch {
    return MISSING;
  }
}

/**
 * Inspects each path once with `lstat`, so the argv builders can stay pure. These
 * are a few dozen metadata calls: synchronous calls cost microseconds, where a
 * round trip through the thread pool per path would dominate a sandbox start.
 */
export function inspectHostLayout(paths: Iterable<string>): HostLayout {
  const layout = new Map<string, HostPathKind>();
  for (const candidate of paths) if (!layout.has(candidate)) layout.set(candidate, inspectPath(candidate));
  return layout;
}
