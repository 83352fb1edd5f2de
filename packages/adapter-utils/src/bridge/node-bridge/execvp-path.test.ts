import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { execvpPath } from "./execvp-path.js";

async function script(file: string, mode: number): Promise<void> {
  await writeFile(file, "#!/bin/sh\n");
  await chmod(file, mode);
}

describe("execvpPath", () => {
  it("finds the first executable regular file in PATH order, passing over what execvp would", async () => {
    const root = tempDirForTest("pc-execvp-unit-");
    const [dirOnly, plain, found, later] = ["a", "b", "c", "d"].map((name) => path.join(root, name));
    for (const dir of [dirOnly, plain, found, later]) await mkdir(dir!);
    await mkdir(path.join(dirOnly!, "tool"), { mode: 0o755 });
    await script(path.join(plain!, "tool"), 0o644);
    await script(path.join(found!, "tool"), 0o755);
    await script(path.join(later!, "tool"), 0o755);
    const PATH = [path.join(root, "missing"), dirOnly, plain, found, later].join(":");
    expect(execvpPath("tool", { PATH })).toEqual({ path: path.join(found!, "tool") });
  });

  it("fails with EACCES when only unrunnable candidates exist, else ENOENT", async () => {
    const root = tempDirForTest("pc-execvp-unit-");
    await script(path.join(root, "tool"), 0o644);
    await mkdir(path.join(root, "dir"));
    expect(execvpPath("tool", { PATH: root })).toEqual({ code: "EACCES" });
    expect(execvpPath("dir", { PATH: root })).toEqual({ code: "EACCES" });
    expect(execvpPath("missing", { PATH: root })).toEqual({ code: "ENOENT" });
    expect(execvpPath("", { PATH: root })).toEqual({ code: "ENOENT" });
  });

  it("takes a name with a slash as given, an empty entry as the working directory", () => {
    expect(execvpPath("./no/such", { PATH: "/bin" })).toEqual({ path: "./no/such" });
    // The package's own package.json, in the working directory and not executable.
    expect(execvpPath("package.json", { PATH: "" })).toEqual({ code: "EACCES" });
    expect(execvpPath("package.json", { PATH: "/nonexistent" })).toEqual({ code: "ENOENT" });
  });

  it("searches execvp's default path when PATH is unset, and finds echo there, not a builtin", () => {
    const found = execvpPath("echo", {});
    expect(found).toEqual({ path: expect.stringMatching(/^\/(usr\/)?bin\/echo$/) });
  });
});
