import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readPackageJson, repoRoot, TESTED_NODE_MAJORS } from "../src/workspace.js";

const toolchain = readFileSync(path.join(repoRoot, "scripts/lib/toolchain-cache.sh"), "utf8");
const runnerMajor = Number(
  /^>=(\d+)\./.exec(String((readPackageJson(".").engines as { node: string }).node))?.[1],
);

describe("the Node matrix the packages' engines are checked against", () => {
  it("is the runner's Node (the root engines) and one pinned Node per other major", () => {
    const pinned = [...toolchain.matchAll(/^PAPERCLIP_NODE(\d+)_VERSION="(\d+)\.\d+\.\d+"$/gm)].map(
      (match) => {
        expect(match[2], `PAPERCLIP_NODE${match[1]}_VERSION`).toBe(match[1]);
        return Number(match[1]);
      },
    );
    expect([runnerMajor, ...pinned].sort((a, b) => a - b)).toEqual([...TESTED_NODE_MAJORS]);
  });

  it("is what scripts/test.sh runs the tests on", () => {
    const testCommand = readFileSync(path.join(repoRoot, "scripts/test.sh"), "utf8");
    const loop = /^for test_node in (.*); do$/m.exec(testCommand)?.[1] ?? "";
    const nodes = loop.split(" ").map((word) => word.replaceAll('"', ""));
    expect(nodes).toEqual([
      "$runner_node",
      ...TESTED_NODE_MAJORS.filter((major) => major !== runnerMajor).map((major) => `$node${major}`),
    ]);
  });
});
