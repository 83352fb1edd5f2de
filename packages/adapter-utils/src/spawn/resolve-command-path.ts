import { accessSync, constants } from "node:fs";
import path from "node:path";

function isExecutable(candidate: string): boolean {
  try {
    accessSync(candidate, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Upstream's lookup: a command with a slash is taken relative to `cwd`, otherwise searched
 * on `PATH`, the first executable in PATH order winning. Synchronous on purpose: an
 * `access` costs microseconds, where a thread-pool round trip per lookup showed on
 * every sandbox start.
 */
export function resolveCommandPath(
  command: string,
  cwd: string,
  env: Record<string, string | undefined>,
): string | null {
  if (command.includes("/")) {
    const absolute = path.isAbsolute(command) ? command : path.resolve(cwd, command);
    return isExecutable(absolute) ? absolute : null;
  }
  for (const dir of (env.PATH ?? "").split(":")) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

export const DEFAULT_PATH = "/usr/local/bin:/opt/homebrew/bin:/usr/local/sbin:/usr/bin:/bin:/usr/sbin:/sbin";
