import { realpathSync } from "node:fs";
import { homedir, userInfo } from "node:os";
import path from "node:path";
import { isPathInside } from "../options/normalize-absolute-path.js";

/**
 * The package root a program gets shown read-only to start, given the nearest directory
 * at or above its real directory with a `package.json` (`nearestPackageRoot`): none when
 * that is `/`, one of `homes` or above one (pure). A `package.json` there belongs to no
 * package the program came from: a stray `npm install` in the home directory leaves one
 * (a Docker image's `WORKDIR /` one at `/`), and the walk from a standalone program in
 * `~/.local/bin` met it and showed the program all of `~` (`~/.ssh` included). The
 * program then gets its own directory only, as where no `package.json` is found at all.
 */
export function programPackageRoot(root: string | null, homes: readonly string[]): string | null {
  return root === null || showsHome(root, homes) ? null : root;
}

/** Whether `dir` is `/`, one of `homes` or above one: never shown whole for a program to start (pure). */
export function showsHome(dir: string, homes: readonly string[]): boolean {
  return dir === path.parse(dir).root || homes.some((home) => isPathInside(dir, home));
}

/** The runner's home directory as `HOME` and the user database name it, each also by its real path. */
export function runnerHomes(): string[] {
  const named: string[] = [homedir()];
  try {
    named.push(userInfo().homedir);
  } catch {
    // No user database entry (a container's arbitrary uid): `HOME` alone.
  }
  const homes = new Set<string>();
  for (const home of named) {
    if (!path.isAbsolute(home)) continue;
    homes.add(home);
    try {
      homes.add(realpathSync.native(home));
    } catch {
      // A home that does not exist holds no files to show.
    }
  }
  return [...homes];
}
