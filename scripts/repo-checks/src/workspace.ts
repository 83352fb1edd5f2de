import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export const repoRoot = path.resolve(import.meta.dirname, "../../..");

/** Directories of the publishable packages, relative to the repository root. */
export const publishableDirs = [
  "packages/errors",
  "packages/adapter-utils",
  "packages/plugins/sandbox-providers/createos",
  "packages/plugins/sandbox-providers/createos-emulator",
  "packages/paperclip-runner",
] as const;

/** The Node majors scripts/test.sh runs the whole suite on: the runner's (20) and the pinned 22 and 24. */
export const TESTED_NODE_MAJORS = [20, 22, 24] as const;

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

export const isTestFile = (file: string): boolean =>
  /\.test\.[cm]?[jt]s$/.test(file) || file.split(path.sep).includes("test");
