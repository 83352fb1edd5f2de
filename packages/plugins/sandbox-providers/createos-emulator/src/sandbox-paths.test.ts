import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { tempDirForFile } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { isConfined, mapSandboxPath } from "./sandbox-paths.js";

const dirs = { workspaceDir: "/host/sbx/paperclip-workspace", tmpDir: "/host/sbx/tmp" };

describe("mapSandboxPath", () => {
  it.each([
    ["/paperclip-workspace", "/host/sbx/paperclip-workspace"],
    ["/paperclip-workspace/", "/host/sbx/paperclip-workspace"],
    ["/paperclip-workspace/a/b.txt", "/host/sbx/paperclip-workspace/a/b.txt"],
    ["/paperclip-workspace/a/../b", "/host/sbx/paperclip-workspace/b"],
    ["/tmp/stdin", "/host/sbx/tmp/stdin"],
  ])("maps %s", (path, host) => {
    expect(mapSandboxPath(path, dirs)).toBe(host);
  });

  it.each([
    "relative",
    "/etc/passwd",
    "/paperclip-workspace/../etc/passwd",
    "/paperclip-workspacex",
    "/tmp/\0x",
  ])("refuses %j", (path) => {
    expect(mapSandboxPath(path, dirs)).toBeUndefined();
  });
});

describe("isConfined", () => {
  const root = tempDirForFile("sandbox-paths-");
  const real = { workspaceDir: join(root, "ws"), tmpDir: join(root, "tmp") };
  mkdirSync(real.workspaceDir);
  mkdirSync(real.tmpDir);
  symlinkSync("/etc", join(real.workspaceDir, "escape"));
  symlinkSync(real.tmpDir, join(real.workspaceDir, "to-tmp"));

  it("accepts paths inside, existing or not", async () => {
    expect(await isConfined(join(real.workspaceDir, "new/dir/file"), real)).toBe(true);
    expect(await isConfined(join(real.workspaceDir, "to-tmp/x"), real)).toBe(true);
  });

  it("refuses a path through a symlink that leaves the sandbox", async () => {
    expect(await isConfined(join(real.workspaceDir, "escape/passwd"), real)).toBe(false);
    expect(await isConfined(join(real.workspaceDir, "escape/new-file"), real)).toBe(false);
  });
});
