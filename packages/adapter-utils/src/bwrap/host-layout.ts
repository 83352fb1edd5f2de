import { lstat, readlink, realpath } from "node:fs/promises";

/** What a host path is, as `lstat` sees it (symlinks are not followed). */
export type HostPathKind =
  | { readonly kind: "missing" }
  | { readonly kind: "directory" }
  | { readonly kind: "file" }
  /** `target` is the link text (kept relative so a recreated link means the same); `resolved` is null when dangling. */
  | { readonly kind: "symlink"; readonly target: string; readonly resolved: string | null };

export type HostLayout = ReadonlyMap<string, HostPathKind>;

const MISSING: HostPathKind = { kind: "missing" };

export function kindOf(layout: HostLayout, candidate: string): HostPathKind {
  return layout.get(candidate) ?? MISSING;
}

async function inspectPath(candidate: string): Promise<HostPathKind> {
  try {
    const stats = await lstat(candidate);
    if (stats.isSymbolicLink()) {
      const target = await readlink(candidate);
      const resolved = await realpath(candidate).catch(() => null);
      return { kind: "symlink", target, resolved };
    }
    return stats.isDirectory() ? { kind: "directory" } : { kind: "file" };
  } catch {
    return MISSING;
  }
}

/** Inspects each path once with `lstat`, so the argv builders can stay pure. */
export async function inspectHostLayout(paths: Iterable<string>): Promise<HostLayout> {
  const unique = [...new Set(paths)];
  const kinds = await Promise.all(unique.map(inspectPath));
  return new Map(unique.map((candidate, index) => [candidate, kinds[index] ?? MISSING]));
}
