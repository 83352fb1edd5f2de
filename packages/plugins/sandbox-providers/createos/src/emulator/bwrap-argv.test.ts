import { describe, expect, it } from "vitest";
import { buildBwrapArgv } from "./bwrap-argv.js";

describe("buildBwrapArgv", () => {
  const argv = buildBwrapArgv(
    [
      { name: "usr", kind: "dir" },
      { name: "bin", kind: "symlink", target: "usr/bin" },
      { name: "tmp", kind: "dir" },
      { name: "proc", kind: "dir" },
      { name: "swapfile", kind: "other" },
    ],
    { workspaceDir: "/h/ws", tmpDir: "/h/tmp" },
    "/paperclip-workspace",
    ["/bin/bash", "-c", "echo hi"],
  );

  it("recreates the host root read-only, minus the entries the sandbox replaces", () => {
    expect(argv.join(" ")).toContain("--ro-bind /usr /usr --symlink usr/bin /bin");
    expect(argv.join(" ")).not.toContain("/swapfile");
    expect(argv.join(" ")).not.toContain("--ro-bind /tmp");
    expect(argv.join(" ")).not.toContain("--ro-bind /proc");
  });

  it("mounts the sandbox directories writable and runs the command after --", () => {
    expect(argv.join(" ")).toContain("--bind /h/tmp /tmp --bind /h/ws /paperclip-workspace");
    expect(argv.slice(-6)).toEqual(["--chdir", "/paperclip-workspace", "--", "/bin/bash", "-c", "echo hi"]);
    expect(argv).toContain("--die-with-parent");
    expect(argv).toContain("--unshare-pid");
  });
});
