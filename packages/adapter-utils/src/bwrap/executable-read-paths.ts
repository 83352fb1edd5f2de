import { lstat, realpath } from "node:fs/promises";
import path from "node:path";

async function nearestPackageRoot(file: string): Promise<string> {
  let current = path.dirname(file);
  while (current !== path.dirname(current)) {
    if (
      await lstat(path.join(current, "package.json")).then(
        () => true,
        () => false,
      )
    )
      return current;
    current = path.dirname(current);
  }
  return path.dirname(file);
}

/**
 * What a program needs to be readable: its own directory and the package root of
 * its real file (a `node_modules/.bin` link points into its package).
 */
export async function executableReadPaths(executable: string): Promise<string[]> {
  const real = await realpath(executable).catch(() => executable);
  return [...new Set([path.dirname(executable), await nearestPackageRoot(real)])];
}
