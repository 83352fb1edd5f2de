// The workspace's packages, read from pnpm-workspace.yaml and each package.json: the one
// source of which packages publish (every package without `"private": true`). Plain
// JavaScript so that the release script and the end-to-end suites use it without a build.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** @typedef {{ name: string, version: string, private?: boolean, [key: string]: unknown }} PackageJson */
/** @typedef {{ dir: string, manifest: PackageJson }} WorkspacePackage */

/** The repository root (this file is scripts/repo-checks/src/workspace-packages.mjs). */
export const repoRoot = path.resolve(import.meta.dirname, "../../..");

/**
 * The `packages:` globs of a pnpm-workspace.yaml: a list of `- "glob"` lines, where a glob is
 * a directory or a directory followed by one `/*` (the only forms this repository uses).
 * @param {string} yaml
 * @returns {string[]}
 */
export function parseWorkspaceGlobs(yaml) {
  const section = /^packages:\n((?:[ \t]+-[^\n]*\n?)+)/m.exec(yaml)?.[1] ?? "";
  const globs = [...section.matchAll(/^[ \t]+-[ \t]*["']?([^"'\n#]+?)["']?[ \t]*$/gm)].map((m) => m[1] ?? "");
  for (const glob of globs) {
    if (!/^[\w.-]+(?:\/[\w.-]+)*(?:\/\*)?$/.test(glob)) {
      throw new Error(`pnpm-workspace.yaml: unsupported package glob ${JSON.stringify(glob)}`);
    }
  }
  return globs;
}

/**
 * Every workspace package (the root excluded), sorted by directory.
 * @param {string} [root]
 * @returns {WorkspacePackage[]}
 */
export function workspacePackages(root = repoRoot) {
  const globs = parseWorkspaceGlobs(readFileSync(path.join(root, "pnpm-workspace.yaml"), "utf8"));
  const dirs = globs.flatMap((glob) => {
    if (!glob.endsWith("/*")) return [glob];
    const parent = glob.slice(0, -2);
    if (!existsSync(path.join(root, parent))) return [];
    return readdirSync(path.join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== "node_modules")
      .map((entry) => `${parent}/${entry.name}`);
  });
  return [...new Set(dirs)]
    .filter((dir) => existsSync(path.join(root, dir, "package.json")))
    .sort()
    .map((dir) => ({
      dir,
      manifest: /** @type {PackageJson} */ (
        JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8"))
      ),
    }));
}

/**
 * The packages a release publishes: every workspace package that is not private.
 * @param {string} [root]
 * @returns {WorkspacePackage[]}
 */
export function publishablePackages(root = repoRoot) {
  return workspacePackages(root).filter((pkg) => pkg.manifest.private !== true);
}
