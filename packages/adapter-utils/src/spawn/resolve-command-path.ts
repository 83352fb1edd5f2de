import { constants } from "node:fs";
import { access } from "node:fs/promises";
import path from "node:path";

async function isExecutable(candidate: string): Promise<boolean> {
  return access(candidate, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** Upstream's lookup: a command with a slash is taken relative to `cwd`, otherwise searched on `PATH`. */
export async function resolveCommandPath(
  command: string,
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<string | null> {
  if (command.includes("/")) {
    const absolute = path.isAbsolute(command) ? command : path.resolve(cwd, command);
    return (await isExecutable(absolute)) ? absolute : null;
  }
  // Every PATH entry is probed at once (one thread-pool round trip instead of one per
  // entry); the first executable in PATH order still wins.
  const candidates = (env.PATH ?? "")
    .split(":")
    .filter(Boolean)
    .map((dir) => path.join(dir, command));
  const executable = await Promise.all(candidates.map(isExecutable));
  return candidates[executable.indexOf(true)] ?? null;
}

export const DEFAULT_PATH = "/usr/local/bin:/opt/homebrew/bin:/usr/local/sbin:/usr/bin:/bin:/usr/sbin:/sbin";
