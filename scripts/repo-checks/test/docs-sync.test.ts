import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { renderErrorDocs } from "@paperclipai/errors/registry";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../src/workspace.js";

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
