import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { resolveCommandPath } from "./resolve-command-path.js";

describe("resolveCommandPath", () => {
  it("returns the first executable match in PATH order, skipping non-executable files", async () => {
    const root = tempDirForTest("pc-resolve-unit-");
    const dirs = ["a", "b", "c", "d"].map((name) => path.join(root, name));
    for (const dir of dirs) await mkdir(dir);
    const tool = (dir: string) => path.join(dir, "tool");
    await writeFile(tool(dirs[1]!), "");
    await chmod(tool(dirs[1]!), 0o644);
    for (const dir of dirs.slice(2)) {
      await writeFile(tool(dir), "#!/bin/sh\n");
      await chmod(tool(dir), 0o755);
    }
    const PATH = dirs.join(":");
    expect(await resolveCommandPath("tool", "/", { PATH })).toBe(tool(dirs[2]!));
    expect(await resolveCommandPath("missing", "/", { PATH })).toBeNull();
    expect(await resolveCommandPath("./tool", dirs[3]!, { PATH: "" })).toBe(tool(dirs[3]!));
  });
});
