import { readFileSync } from "node:fs";
import path from "node:path";
import { errorRegistry } from "@paperclipai/errors/registry";
import { describe, expect, it } from "vitest";
import { codeLiterals } from "../src/code-literals.js";
import { isTestFile, listFiles, publishableDirs, repoRoot } from "../src/workspace.js";

// The error classes' constructors only accept registry codes, so TypeScript covers what the
// patterns cannot see. Comments never count: codeLiterals reads code, not text.
const isSource = (file: string) => /\.[cm]?ts$/.test(file) && !file.endsWith(".d.ts");

/** code → the files (relative) that write it, for asserted literals and for the rest. */
function codesIn(files: readonly string[]) {
  const asserted = new Map<string, Set<string>>();
  const named = new Map<string, Set<string>>();
  for (const file of files) {
    for (const literal of codeLiterals(file, readFileSync(file, "utf8"))) {
      const where = literal.asserted ? asserted : named;
      where.set(literal.code, (where.get(literal.code) ?? new Set()).add(path.relative(repoRoot, file)));
    }
  }
  return { asserted, named };
}

const emitted = errorRegistry.filter((entry) => entry.emitted !== false).map((entry) => entry.code);
const documented = new Set<string>(errorRegistry.map((entry) => entry.code));
const packageFiles = publishableDirs.flatMap((dir) => listFiles(path.join(repoRoot, dir), isSource));
const registryDir = path.join(repoRoot, "packages/errors/src/registry");
const sourceFiles = packageFiles.filter((file) => !isTestFile(file) && !file.startsWith(registryDir));
const testFiles = [
  ...packageFiles.filter(isTestFile),
  ...["scripts", "e2e"].flatMap((dir) => listFiles(path.join(repoRoot, dir), isSource)).filter(isTestFile),
].filter((file) => !file.startsWith(path.join(repoRoot, "scripts/repo-checks/")));

// Parsing every source and test file takes a few seconds on a loaded machine; not a timing assertion.
describe("error codes across the monorepo", { timeout: 60_000 }, () => {
  const source = codesIn(sourceFiles);
  const inSource = new Set([...source.asserted.keys(), ...source.named.keys()]);

  it("every code used in a package's source has a registry entry", () => {
    expect([...inSource].filter((code) => !documented.has(code))).toEqual([]);
  });

  it("every emitted registry code is produced by the code under test (written in a package's source)", () => {
    expect(emitted.filter((code) => !inSource.has(code))).toEqual([]);
  });

  it("every emitted registry code is asserted by a test (an expect chain, an expect…/assert… helper or an .each table)", () => {
    const { asserted, named } = codesIn(testFiles);
    const unasserted = emitted
      .filter((code) => !asserted.has(code))
      .map((code) =>
        named.has(code)
          ? `${code} (named, not asserted, in ${[...(named.get(code) ?? [])].join(", ")})`
          : code,
      );
    expect(unasserted).toEqual([]);
  });
});
