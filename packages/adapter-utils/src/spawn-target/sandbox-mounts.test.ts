import { describe, expect, it } from "vitest";
import { networkScopeMaskedPaths, requestedMounts } from "./sandbox-mounts.js";

const parsed = { filesystemScope: null, workspaceDir: "/ws", workspaceAccess: "ro" as const, cwd: "/ws/sub" };

describe("requestedMounts", () => {
  it("asks, in upstream's order, for the program's read paths (marked with its directory), managed and extra paths, the workspace and the cwd", () => {
    const options = {
      managedPaths: [{ path: "/managed/", access: "rw" as const }],
      extraPaths: [{ path: "/extra", access: "ro" as const }],
    };
    const program = { programDir: "/opt/tool/bin", paths: ["/usr/bin", "/opt/tool"] };
    expect(requestedMounts(options, parsed, [program])).toEqual([
      { path: "/usr/bin", access: "ro", programDir: "/opt/tool/bin" },
      { path: "/opt/tool", access: "ro", programDir: "/opt/tool/bin" },
      { path: "/managed", access: "rw" },
      { path: "/extra", access: "ro" },
      { path: "/ws", access: "rw" },
      { path: "/ws/sub", access: "rw" },
    ]);
  });

  it("gives the workspace scope's workspace its configured access and no separate cwd", () => {
    expect(requestedMounts({}, { ...parsed, filesystemScope: "workspace" }, [])).toEqual([
      { path: "/ws", access: "ro" },
    ]);
  });
});

describe("networkScopeMaskedPaths", () => {
  it("masks /tmp, /run and /var/run, and an absolute XDG_RUNTIME_DIR", () => {
    expect(networkScopeMaskedPaths(undefined)).toEqual(["/tmp", "/run", "/var/run"]);
    expect(networkScopeMaskedPaths("relative/dir")).toEqual(["/tmp", "/run", "/var/run"]);
    expect(networkScopeMaskedPaths("/run/user/1000/")).toEqual([
      "/tmp",
      "/run",
      "/var/run",
      "/run/user/1000",
    ]);
  });
});
