import { realpathSync } from "node:fs";
import path from "node:path";
import { nearestPackageRoot } from "../package-root.js";

/**
 * What a program needs to be readable: its own directory and the package root of
 * its real file (a `node_modules/.bin` link points into its package).
 */
export function executableReadPaths(executable: string): string[] {
  let real = executable;
  try {
    real = realpathSync.native(executable);
  } catch {}
  return [
    ...new Set([path.dirname(executable), nearestPackageRoot(path.dirname(real)) ?? path.dirname(real)]),
  ];
}
