import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { codexHostTempDirs, removeCodexHostTempCreatedLater } from "../src/codex-host-temp.js";

describe("removeCodexHostTempCreatedLater", () => {
  it("removes the per-user directories Codex made during the suite, with what they hold", () => {
    const base = tempDirForTest("codex host temp ");
    const remove = removeCodexHostTempCreatedLater(1234, base);
    const dirs = codexHostTempDirs(1234, base);
    for (const dir of dirs) mkdirSync(dir);
    writeFileSync(path.join(dirs[1]!, "lock"), "");
    remove();
    expect(dirs.filter((dir) => existsSync(dir))).toEqual([]);
  });

  it("keeps the ones that were there before, and another user's", () => {
    const base = tempDirForTest("codex host temp ");
    const [daemon, mountTargets] = codexHostTempDirs(1234, base);
    mkdirSync(daemon!);
    const otherUser = codexHostTempDirs(99, base);
    const remove = removeCodexHostTempCreatedLater(1234, base);
    mkdirSync(mountTargets!);
    for (const dir of otherUser) mkdirSync(dir);
    remove();
    expect([daemon, mountTargets, ...otherUser].map((dir) => existsSync(dir!))).toEqual([
      true,
      false,
      true,
      true,
    ]);
  });
});
