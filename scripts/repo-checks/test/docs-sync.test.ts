import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { errorRegistry, renderErrorDocs } from "@paperclipai/errors/registry";
import { describe, expect, it } from "vitest";
import { markdownFiles, repoRoot } from "../src/workspace.js";

const docsDir = path.join(repoRoot, "docs/errors");
const REGENERATE = "pnpm --filter @paperclipai/errors docs";

describe("docs/errors", () => {
  it(`matches the registry (regenerate with: ${REGENERATE})`, () => {
    const expected = renderErrorDocs();
    const actual = existsSync(docsDir) ? readdirSync(docsDir).filter((name) => name.endsWith(".md")) : [];
    expect(actual.sort()).toEqual([...expected.keys()].sort());
    for (const [name, text] of expected) {
      expect(readFileSync(path.join(docsDir, name), "utf8"), `${name} is stale; run ${REGENERATE}`).toBe(
        text,
      );
    }
  });
});

// The families' codes; Node's own (ERR_INVALID_ARG_TYPE, …) may be quoted freely.
const FAMILY_CODE = /\bERR_(?:SANDBOX|CREATEOS|RUNNER|ERRORS)_[A-Z0-9_]*[A-Z0-9]\b/g;

describe("the Markdown of the repository (READMEs, docs, changesets, changelogs)", () => {
  it("names only error codes the registry documents", () => {
    const documented = new Set<string>(errorRegistry.map((entry) => entry.code));
    const unknown = markdownFiles().flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(FAMILY_CODE)]
        .filter((match) => !documented.has(match[0]))
        .map((match) => `${path.relative(repoRoot, file)}: ${match[0]}`),
    );
    expect(unknown).toEqual([]);
  });
});
