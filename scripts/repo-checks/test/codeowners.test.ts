import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { publishableDirs, repoRoot } from "../src/workspace.js";

const owners = new Map(
  readFileSync(path.join(repoRoot, ".github/CODEOWNERS"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .map((line) => {
      const [pattern = "", ...teams] = line.trim().split(/\s+/);
      return [pattern, teams] as const;
    }),
);

describe.each(publishableDirs)("CODEOWNERS for %s", (dir) => {
  it("names the package directory's owning team on a line of its own", () => {
    expect(owners.get(`/${dir}/`)?.length ?? 0, `.github/CODEOWNERS has no /${dir}/ line`).toBeGreaterThan(0);
  });
});
