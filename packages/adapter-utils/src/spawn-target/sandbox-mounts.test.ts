import { describe, expect, it } from "vitest";
import { networkScopeMaskedPaths, requestedMounts } from "./sandbox-mounts.js";

const parsed = { filesystemScope: null, workspaceDir: "/ws", workspaceAccess: "ro" as const, cwd: "/ws/sub" };

describe("requestedMounts", () => {
  it("asks, in upstream's order, for the (executable-derived) read paths, managed and extra paths, the workspace and the cwd", () => {
    const options = {
      managedPaths: [{ path: "/managed/", access: "rw" as const }],
      extraPaths: [{ path: "/extra", access: "ro" as const }],
    };
    expect(requestedMounts(options, parsed, ["/usr/bin", "/opt/tool"])).toEqual([
      { path: "/usr/bin", access: "ro", executableDerived: true },
      { path: "/opt/tool", access: "ro", executableDerived: true },
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
