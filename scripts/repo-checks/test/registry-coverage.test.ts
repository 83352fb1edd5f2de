import { readFileSync } from "node:fs";
import path from "node:path";
import { errorRegistry } from "@paperclipai/errors/registry";
import { describe, expect, it } from "vitest";
import { isTestFile, listFiles, publishableDirs, repoRoot } from "../src/workspace.js";

// Our areas only: Node's own codes (ERR_HTTP_REQUEST_TIMEOUT, ERR_STREAM_…) are checked, not thrown, by us.
// The error classes' constructors only accept registry codes, so TypeScript covers the rest.
const CODE = /\bERR_(?:ERRORS|SANDBOX|CREATEOS|RUNNER)_[A-Z0-9]+(?:_[A-Z0-9]+)*\b/g;
const isSource = (file: string) => /\.[cm]?ts$/.test(file) && !file.endsWith(".d.ts");

function codesIn(files: readonly string[]): Map<string, string[]> {
  const where = new Map<string, string[]>();
  for (const file of files) {
    for (const code of readFileSync(file, "utf8").match(CODE) ?? []) {
      where.set(code, [...(where.get(code) ?? []), path.relative(repoRoot, file)]);
    }
  }
  return where;
}

const documented = new Set<string>(errorRegistry.map((entry) => entry.code));
const packageFiles = publishableDirs.flatMap((dir) => listFiles(path.join(repoRoot, dir), isSource));
const registryDir = path.join(repoRoot, "packages/errors/src/registry");
const sourceFiles = packageFiles.filter((file) => !isTestFile(file) && !file.startsWith(registryDir));
const testFiles = [
  ...packageFiles.filter(isTestFile),
  ...listFiles(path.join(repoRoot, "scripts"), isSource).filter(isTestFile),
].filter((file) => !file.endsWith("registry-coverage.test.ts"));

describe("error codes across the monorepo", () => {
  it("every code used in a package's source has a registry entry", () => {
    const undocumented = [...codesIn(sourceFiles)].filter(([code]) => !documented.has(code));
    expect(Object.fromEntries(undocumented)).toEqual({});
  });

  it("every emitted registry code is produced by at least one test", () => {
    const tested = codesIn(testFiles);
    const untested = errorRegistry
      .filter((entry) => entry.emitted !== false && !tested.has(entry.code))
      .map((entry) => entry.code);
    expect(untested).toEqual([]);
  });
});
