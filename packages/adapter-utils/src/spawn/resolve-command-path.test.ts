import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { DEFAULT_PATH, resolveBwrapPath, resolveCommandPath } from "./resolve-command-path.js";

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

describe("resolveBwrapPath", () => {
  it("searches the host's PATH, absolute entries only, and takes a name with a slash as given", async () => {
    const root = tempDirForTest("pc-resolve-bwrap-");
    for (const dir of ["host", "ws/bin"]) {
      await mkdir(path.join(root, dir), { recursive: true });
      await writeFile(path.join(root, dir, "bwrap"), "#!/bin/sh\n");
      await chmod(path.join(root, dir, "bwrap"), 0o755);
    }
    const hostDir = path.join(root, "host");
    expect(resolveBwrapPath("bwrap", root, { PATH: hostDir })).toBe(path.join(hostDir, "bwrap"));
    // A relative entry would be resolved against this process's cwd: skipped.
    const relative = path.relative(process.cwd(), path.join(root, "ws/bin"));
    expect(resolveBwrapPath("bwrap", root, { PATH: `${relative}:${hostDir}` })).toBe(
      path.join(hostDir, "bwrap"),
    );
    expect(resolveBwrapPath("bwrap", root, { PATH: relative })).toBeNull();
    expect(resolveBwrapPath("./ws/bin/bwrap", root, { PATH: "" })).toBe(path.join(root, "ws/bin/bwrap"));
    expect(resolveBwrapPath("sh", root, {})).toBe(resolveCommandPath("sh", "/", { PATH: DEFAULT_PATH }));
  });

  it("skips the workspace's own directories on the host's PATH, by real path, except a workspace of /", async () => {
    const root = tempDirForTest("pc-resolve-bwrap-ws-");
    for (const dir of ["host", "ws/node_modules/.bin"]) {
      await mkdir(path.join(root, dir), { recursive: true });
      await writeFile(path.join(root, dir, "bwrap"), "#!/bin/sh\n");
      await chmod(path.join(root, dir, "bwrap"), 0o755);
    }
    await symlink(path.join(root, "ws"), path.join(root, "ws-link"));
    const hostPath = `${path.join(root, "ws/node_modules/.bin")}:${path.join(root, "host")}`;
    const ws = path.join(root, "ws");
    expect(resolveBwrapPath("bwrap", root, { PATH: hostPath })).toBe(
      path.join(root, "ws/node_modules/.bin/bwrap"),
    );
    expect(resolveBwrapPath("bwrap", root, { PATH: hostPath }, ws)).toBe(path.join(root, "host/bwrap"));
    expect(resolveBwrapPath("bwrap", root, { PATH: hostPath }, path.join(root, "ws-link"))).toBe(
      path.join(root, "host/bwrap"),
    );
    expect(resolveBwrapPath("bwrap", root, { PATH: path.join(root, "ws/node_modules/.bin") }, ws)).toBeNull();
    expect(resolveBwrapPath("bwrap", root, { PATH: hostPath }, "/")).toBe(
      path.join(root, "ws/node_modules/.bin/bwrap"),
    );
  });
});
