import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeMatrix, readPackageJson, repoRoot } from "../src/workspace.js";

const runnerMajor = Number(
  /^>=(\d+)\./.exec(String((readPackageJson(".").engines as { node: string }).node))?.[1],
);

describe("the Node matrix (scripts/lib/node-matrix.json)", () => {
  it("is the oldest supported Node (the root engines) and one pinned Node per other major", () => {
    const majors = [...nodeMatrix.majors];
    expect(majors).toEqual([...majors].sort((a, b) => a - b));
    expect(majors[0]).toBe(runnerMajor);
    expect(Object.keys(nodeMatrix.pinned).map(Number)).toEqual(majors.slice(1));
    for (const [major, version] of Object.entries(nodeMatrix.pinned)) {
      expect(version, `pinned Node ${major}`).toMatch(new RegExp(`^${major}\\.\\d+\\.\\d+$`));
    }
  });

  it("is read by the test command and the toolchain cache, not restated", () => {
    const testCommand = readFileSync(path.join(repoRoot, "scripts/test.sh"), "utf8");
    const toolchain = readFileSync(path.join(repoRoot, "scripts/lib/toolchain-cache.sh"), "utf8");
    expect(testCommand).toContain("node_matrix majors");
    expect(toolchain).toContain("node-matrix.json");
    for (const version of Object.values(nodeMatrix.pinned)) {
      expect(testCommand).not.toContain(version);
      expect(toolchain).not.toContain(version);
    }
  });
});
