import { realpath } from "node:fs/promises";
import { posix } from "node:path";

/** Where the plugin realizes workspaces inside a CreateOS sandbox. */
export const WORKSPACE_PATH = "/paperclip-workspace";
export const TMP_PATH = "/tmp";

/** The host directories that back one sandbox's writable paths. */
export interface SandboxDirs {
  readonly workspaceDir: string;
  readonly tmpDir: string;
}

/**
 * Maps an absolute sandbox path to its host path; undefined when the path is not absolute,
 * contains NUL, or lies outside `/paperclip-workspace` and `/tmp` once `..` is resolved.
 */
export function mapSandboxPath(path: string, dirs: SandboxDirs): string | undefined {
  if (!path.startsWith("/") || path.includes("\0")) return undefined;
  const normal = posix.normalize(path);
  for (const [prefix, dir] of [
    [WORKSPACE_PATH, dirs.workspaceDir],
    [TMP_PATH, dirs.tmpDir],
  ] as const) {
    if (normal === prefix || normal === `${prefix}/`) return dir;
    if (normal.startsWith(`${prefix}/`)) return posix.join(dir, normal.slice(prefix.length + 1));
  }
  return undefined;
}

function inside(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => path === root || path.startsWith(`${root}/`));
}

async function deepestExisting(path: string): Promise<string> {
  let current = path;
  for (;;) {
    try {
      return await realpath(current);
    } catch {
      const parent = posix.dirname(current);
      // `/` always resolves, so the walk ends there at the latest.
      if (parent === current) return current;
      current = parent;
    }
  }
}

/**
 * True when `hostPath`, after following the symlinks a sandbox process may have planted, still
 * lies inside the sandbox's directories (checked on the target itself, or on its deepest
 * existing ancestor when it does not exist yet).
 */
export async function isConfined(hostPath: string, dirs: SandboxDirs): Promise<boolean> {
  const roots = [await realpath(dirs.workspaceDir), await realpath(dirs.tmpDir)];
  return inside(await deepestExisting(hostPath), roots);
}
