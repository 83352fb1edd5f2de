import { describe, expect, it } from "vitest";
import { namespaceMountArgs } from "./namespace-mounts.js";

const dirs = { workspaceDir: "/var/tmp/e/sbx_1/paperclip-workspace", tmpDir: "/var/tmp/e/sbx_1/tmp" };

describe("namespaceMountArgs", () => {
  it("shows the host's root entries again, links as links, with the sandbox's directories in their places", () => {
    const args = namespaceMountArgs(
      [
        { name: "usr", kind: "mountable" },
        { name: "bin", kind: "symlink", target: "usr/bin" },
        { name: "tmp", kind: "mountable" },
        { name: "proc", kind: "mountable" },
        { name: "paperclip-workspace", kind: "mountable" },
      ],
      dirs,
      "/paperclip-workspace/repo",
    );
    expect(args).toEqual(
      [
        ["--symlink", "usr/bin", "/bin"],
        ["--dev-bind", "/proc", "/proc"],
        ["--dev-bind", "/usr", "/usr"],
        ["--bind", dirs.workspaceDir, "/paperclip-workspace"],
        ["--bind", dirs.tmpDir, "/tmp"],
        ["--chdir", "/paperclip-workspace/repo"],
      ].flat(),
    );
  });

  it("makes no namespace but the mount namespace (processes, network and uid stay the host's)", () => {
    const args = namespaceMountArgs([{ name: "etc", kind: "mountable" }], dirs, "/");
    expect(args.filter((arg) => arg.startsWith("--unshare") || arg === "--die-with-parent")).toEqual([]);
  });
});
