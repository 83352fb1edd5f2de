import path from "node:path";
import { nearestPackageRoot } from "../package-root.js";
import { procLinkOnPath } from "./proc-link.js";
import { type RealPath, realPathOf } from "./resolve-bind-sources.js";
import { isSharedPlace, programPackageRoot, sharedPlaces } from "./shared-places.js";

/** What one program needs readable to start, and where it really lives. */
export interface ProgramReadPaths {
  /** The real directory of the program's file. */
  readonly programDir: string;
  readonly paths: readonly string[];
}

/**
 * What a program needs to be readable: its own directory and the package root of
 * its real file (a `node_modules/.bin` link points into its package); neither is ever
 * `/`, the home directory or a shared temporary one (`isSharedPlace`): there the file
 * alone. Nothing for a
 * path that resolves through `/proc` (`<ws>/node_modules/.bin/tool -> /proc/self/cwd/bin/start`,
 * planted by an earlier run): resolved here it names the builder's working directory,
 * whose package root would be shown, while the sandbox runs the file the link names
 * there, in the workspace.
 */
export function executableReadPaths(executable: string, realPath: RealPath = realPathOf): ProgramReadPaths {
  if (procLinkOnPath(executable) !== null) return { programDir: path.dirname(executable), paths: [] };
  const real = realPath(executable);
  const programDir = path.dirname(real);
  const places = sharedPlaces(process.env, realPath);
  // A program directly in `/`, `~` or `/tmp` gets its file, not everything beside it.
  const shown = (dir: string, file: string) => (isSharedPlace(dir, places) ? file : dir);
  return {
    programDir,
    paths: [
      ...new Set([
        shown(path.dirname(executable), executable),
        programPackageRoot(nearestPackageRoot(programDir), places) ?? shown(programDir, real),
      ]),
    ],
  };
}
