import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { publishablePackages, repoRoot } from "./workspace-packages.mjs";

export { repoRoot };

/** Directories of the publishable packages (every workspace package not marked private). */
export const publishableDirs: readonly string[] = publishablePackages().map((pkg) => pkg.dir);

/** The Node matrix of the test command: scripts/lib/node-matrix.json, its one source. */
export interface NodeMatrix {
  readonly majors: readonly number[];
  readonly pinned: Readonly<Record<string, string>>;
}

export const nodeMatrix = JSON.parse(
  readFileSync(path.join(repoRoot, "scripts/lib/node-matrix.json"), "utf8"),
) as NodeMatrix;

/** The Node majors scripts/test.sh runs the whole suite on. */
export const TESTED_NODE_MAJORS: readonly number[] = nodeMatrix.majors;

export interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  [key: string]: unknown;
}

export function readPackageJson(dir: string): PackageJson {
  return JSON.parse(readFileSync(path.join(repoRoot, dir, "package.json"), "utf8")) as PackageJson;
}

const SKIPPED_DIRS = new Set(["node_modules", "dist", ".turbo", "coverage"]);

/** Every file below `dir` (absolute) whose name passes `accept`, skipping build output and dependencies. */
export function listFiles(dir: string, accept: (file: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(name)) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) found.push(...listFiles(full, accept));
    else if (accept(full)) found.push(full);
  }
  return found;
}

const isMarkdown = (file: string): boolean => file.endsWith(".md");

/**
 * Every Markdown file of the repository: at the root and below it, in `.changeset` but no
 * other dot-directory, without dependencies or build output.
 */
export function markdownFiles(): string[] {
  return readdirSync(repoRoot, { withFileTypes: true })
    .filter((entry) => entry.name === ".changeset" || !entry.name.startsWith("."))
    .flatMap((entry) => {
      const full = path.join(repoRoot, entry.name);
      if (SKIPPED_DIRS.has(entry.name)) return [];
      return entry.isDirectory() ? listFiles(full, isMarkdown) : isMarkdown(full) ? [full] : [];
    });
}

export const isTestFile = (file: string): boolean =>
  /\.test\.[cm]?[jt]s$/.test(file) || file.split(path.sep).includes("test");
