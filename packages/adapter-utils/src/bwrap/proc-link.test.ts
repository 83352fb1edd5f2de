import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { procLinkOnPath } from "./proc-link.js";

describe("procLinkOnPath", () => {
  it("passes plain paths, links that stay out of /proc, /proc/sys and missing paths", async () => {
    const dir = tempDirForTest("pc-proc-link-");
    await mkdir(path.join(dir, "real", "bin"), { recursive: true });
    await symlink("real", path.join(dir, "relative"));
    await symlink(path.join(dir, "real"), path.join(dir, "absolute"));
    await symlink("../../real/bin", path.join(dir, "real", "bin", "up"));
    for (const candidate of [
      path.join(dir, "real", "bin"),
      path.join(dir, "relative", "bin"),
      path.join(dir, "absolute", "bin", "up", "tool"),
      "/proc/sys/kernel",
      path.join(dir, "missing", "tool"),
    ]) {
      expect(procLinkOnPath(candidate), candidate).toBeNull();
    }
  });

  it("finds /proc/self and the links planted to reach it, directly or through /dev/fd", async () => {
    const dir = tempDirForTest("pc-proc-link-");
    await symlink("/proc/self/cwd/bin/start", path.join(dir, "tool"));
    await symlink("/dev/fd/0", path.join(dir, "stdin"));
    await symlink("../../../../../../../../../../proc/self/root", path.join(dir, "climb"));
    expect(procLinkOnPath("/proc/self/cwd")).toBe("/proc/self");
    expect(procLinkOnPath(path.join(dir, "tool"))).toBe("/proc/self");
    expect(procLinkOnPath(path.join(dir, "stdin"))).toBe("/proc/self");
    expect(procLinkOnPath(path.join(dir, "climb", "etc"))).toBe("/proc/self");
  });

  it("finds a link into a process's files by its number, no link in /proc needed", async () => {
    const dir = tempDirForTest("pc-proc-link-");
    await symlink(`/proc/${process.pid}/environ`, path.join(dir, "environ"));
    expect(procLinkOnPath(path.join(dir, "environ"))).toBe(`/proc/${process.pid}`);
  });
});
