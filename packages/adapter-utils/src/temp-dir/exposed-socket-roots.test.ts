import { existsSync } from "node:fs";
import { mkdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { createExposedSocketRoots } from "./exposed-socket-roots.js";

describe("createExposedSocketRoots", () => {
  it("creates nothing when no source shows a root", async () => {
    const base = tempDirForTest("pc-roots-unit-");
    expect(createExposedSocketRoots([path.join(base, "ws")], [path.join(base, "run", "r")])).toBeNull();
    expect(existsSync(path.join(base, "run"))).toBe(false);
  });

  it("creates a shown root 0700 and removes what it created, parents included", async () => {
    const base = tempDirForTest("pc-roots-unit-");
    const root = path.join(base, "user", "1000", "r");
    const remove = createExposedSocketRoots([base], [root]);
    expect(((await stat(root)).mode & 0o777).toString(8)).toBe("700");
    await remove!();
    expect(existsSync(path.join(base, "user"))).toBe(false);
  });

  it("leaves a root that a run started using, and one that was there before", async () => {
    const base = tempDirForTest("pc-roots-unit-");
    const used = path.join(base, "used");
    const before = path.join(base, "before");
    await mkdir(before);
    const remove = createExposedSocketRoots([base], [used, before]);
    await writeFile(path.join(used, "paperclip-network-sandbox-x"), "");
    await remove!();
    expect(existsSync(used)).toBe(true);
    expect(existsSync(before)).toBe(true);
  });

  it("skips a root it cannot create", async () => {
    const base = tempDirForTest("pc-roots-unit-");
    await writeFile(path.join(base, "file"), "");
    expect(createExposedSocketRoots([base], [path.join(base, "file", "r")])).toBeNull();
  });
});
