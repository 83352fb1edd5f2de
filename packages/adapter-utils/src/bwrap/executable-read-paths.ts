import { existsSync, realpathSync } from "node:fs";
import path from "node:path";

function nearestPackageRoot(file: string): string {
  let current = path.dirname(file);
  while (current !== path.dirname(current)) {
    if (existsSync(path.join(current, "package.json"))) return current;
    current = path.dirname(current);
  }
  return path.dirname(file);
}

/**
 * What a program needs to be readable: its own directory and the package root of
 * its real file (a `node_modules/.bin` link points into its package).
 */
export function executableReadPaths(executable: string): string[] {
  let real = executable;
  try {
    real = realpathSync.native(executable);
  } catch {}
  return [...new Set([path.dirname(executable), nearestPackageRoot(real)])];
}
