import { accessSync, constants, realpathSync } from "node:fs";
import path from "node:path";

/** Whether this process may execute `candidate` (`access(X_OK)`). */
export function isExecutable(candidate: string): boolean {
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

/** `dir` by its real path where it exists, else as written. */
function realOrAsWritten(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Whether `dir` is `place` or lies below it, by their real paths. */
function liesIn(dir: string, place: string): boolean {
  const relative = path.relative(realOrAsWritten(place), realOrAsWritten(dir));
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * bwrap's own lookup. bwrap runs on the host, unconfined, so a bare name is searched on
 * this process's `PATH` (`DEFAULT_PATH` without one), absolute entries only, never on the
 * run's: the run's `PATH` is meant for the program and often names the workspace
 * (`<ws>/node_modules/.bin`), where an earlier run can plant a `bwrap`. A relative entry
 * would be resolved against this process's working directory, which may be a workspace
 * too. Nor an entry in `workspace` (`/` is refused later, by the builder): a process
 * started by `npm run` or `npx` in the workspace has `<ws>/node_modules/.bin` on its own
 * `PATH`. A name with a slash is the operator's explicit choice, taken as given.
 */
export function resolveBwrapPath(
  command: string,
  cwd: string,
  hostEnv: Record<string, string | undefined> = process.env,
  workspace: string | null = null,
): string | null {
  if (command.includes("/")) return resolveCommandPath(command, cwd, {});
  const written = workspace !== null && path.resolve(workspace) !== "/" ? workspace : null;
  const dirs = (hostEnv.PATH || DEFAULT_PATH)
    .split(":")
    .filter((dir) => path.isAbsolute(dir) && !(written !== null && liesIn(dir, written)));
  return resolveCommandPath(command, cwd, { PATH: dirs.join(":") });
}
