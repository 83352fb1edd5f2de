import { homedir, userInfo } from "node:os";
import path from "node:path";
import { isPathInside } from "../options/normalize-absolute-path.js";
import { type RealPath, realPathOf } from "./resolve-bind-sources.js";

/**
 * Directories that hold many other things, some of other processes: the home directory
 * (`~/.ssh`), the shared temporary and runtime directories (the sockets of tmux, ssh-agent,
 * PostgreSQL, D-Bus). The workspace scope gives the program private ones; a program's
 * start-up paths are bound over them, read-only, and a read-only bind does not stop
 * `connect()`. So a start-up path is never one of these, one above them, or `/`.
 */
const SHARED_SYSTEM_PLACES = ["/tmp", "/var/tmp", "/dev/shm", "/run", "/var/run"];

/**
 * The package root a program gets shown read-only to start, given the nearest directory
 * at or above its real directory with a `package.json` (`nearestPackageRoot`): none when
 * that is a shared place (`isSharedPlace`, pure). A `package.json` there belongs to no
 * package the program came from: a stray `npm install` in the home directory leaves one
 * (a Docker image's `WORKDIR /` one at `/`), and the walk from a standalone program in
 * `~/.local/bin` met it and showed the program all of `~` (`~/.ssh` included). The
 * program then gets its own directory only, as where no `package.json` is found at all.
 */
export function programPackageRoot(root: string | null, places: readonly string[]): string | null {
  return root === null || isSharedPlace(root, places) ? null : root;
}

/** Whether `dir` is `/`, one of `places` or above one: never shown whole for a program to start (pure). */
export function isSharedPlace(dir: string, places: readonly string[]): boolean {
  return dir === path.parse(dir).root || places.some((place) => isPathInside(dir, place));
}

/**
 * `os.tmpdir()` on Linux, read from `process.env`: `tmpdir()` reads each of the three
 * variables through Node's `safeGetenv`, which checks the process's privileges with six
 * system calls per variable (eighteen per build). The one difference is a setuid or
 * file-capability start (`AT_SECURE`), where `tmpdir()` ignores the variables and says
 * `/tmp`: here the variable's directory is named too, one shared place more, never fewer.
 */
function temporaryDirectory(): string {
  const named = process.env.TMPDIR || process.env.TMP || process.env.TEMP || "/tmp";
  return named.length > 1 && named.endsWith("/") ? named.slice(0, -1) : named;
}

/**
 * The shared places of this runner: its home directory (as `HOME` and the user database
 * name it), its temporary directory, its runtime directory (`$XDG_RUNTIME_DIR`,
 * `/run/user/<uid>`), and the system's, each also by its real path.
 */
export function sharedPlaces(
  env: NodeJS.ProcessEnv = process.env,
  realPath: RealPath = realPathOf,
): string[] {
  const named: string[] = [homedir(), temporaryDirectory(), ...SHARED_SYSTEM_PLACES];
  // The runtime directory by its variable and by its usual place: a service without a
  // login session has the directory but not the variable.
  if (env.XDG_RUNTIME_DIR) named.push(env.XDG_RUNTIME_DIR);
  if (process.getuid) named.push(`/run/user/${process.getuid()}`);
  try {
    named.push(userInfo().homedir);
  } catch {
    // No user database entry (a container's arbitrary uid): `HOME` alone.
  }
  const places = new Set<string>();
  for (const place of named) {
    if (!path.isAbsolute(place)) continue;
    places.add(place);
    // A place that does not exist holds nothing to show: its own name comes back.
    places.add(realPath(place));
  }
  return [...places];
}
