import { realpathSync } from "node:fs";
import path from "node:path";
import { nearestPackageRoot } from "../package-root.js";

/** What one program needs readable to start, and where it really lives. */
export interface ProgramReadPaths {
  /** The real directory of the program's file. */
  readonly programDir: string;
  readonly paths: readonly string[];
}

/**
 * What a program needs to be readable: its own directory and the package root of
 * its real file (a `node_modules/.bin` link points into its package).
 */
export function executableReadPaths(executable: string): ProgramReadPaths {
  let real = executable;
  try {
    real = realpathSync.native(executable);
  } catch {}
  const programDir = path.dirname(real);
  return {
    programDir,
    paths: [...new Set([path.dirname(executable), nearestPackageRoot(programDir) ?? programDir])],
  };
}
