import { describe, expect, it } from "vitest";
import type { HostLayout, HostPathKind } from "../bwrap/host-layout.js";
import type { SandboxMounts } from "./sandbox-mounts.js";
import { layoutPaths, SANDBOX_BASE_ARGS, scopeArgs } from "./scope-args.js";

const dir: HostPathKind = { kind: "directory" };
const layout: HostLayout = new Map<string, HostPathKind>([
  ["/tmp", dir],
  ["/run", dir],
  ["/proc/sys", dir],
  ["/sys", dir],
  ["/ws", dir],
]);
const mounts: SandboxMounts = {
  requests: [{ path: "/ws", access: "rw" }],
  aliases: [],
  masks: ["/tmp", "/run"],
  socketRoots: ["/dev/shm/paperclip-sandbox-sockets-0"],
};

describe("layoutPaths", () => {
  it("inspects the hardened paths, masks, requests, run directory and socket roots; system paths only for the workspace scope", () => {
    const networkOnly = layoutPaths({ filesystemScope: null }, mounts, "/tmp/run-1");
    expect(networkOnly).toEqual([
      "/proc/sys",
      "/sys",
      "/etc",
      "/etc/hosts",
      "/etc/resolv.conf",
      "/tmp",
      "/run",
      "/ws",
      "/tmp/run-1",
      "/dev/shm/paperclip-sandbox-sockets-0",
    ]);
    const workspace = layoutPaths({ filesystemScope: "workspace" }, mounts, null);
    expect(workspace.length).toBeGreaterThan(networkOnly.length);
    // The fresh root binds them read-only among the system paths, once.
    expect(workspace.filter((path) => path === "/etc/hosts")).toEqual(["/etc/hosts"]);
  });
});

describe("scopeArgs", () => {
  it("starts every scope isolated and without capabilities, and ends a network scope with --unshare-net", () => {
    const { args, maskDirs } = scopeArgs({
      parsed: { filesystemScope: null, networkScope: "deny" },
      layout,
      mounts,
      runDir: "/tmp/run-1",
      proxyMount: null,
      runnerIsRoot: false,
      initMask: null,
    });
    expect(args.slice(0, SANDBOX_BASE_ARGS.length)).toEqual([...SANDBOX_BASE_ARGS]);
    expect(SANDBOX_BASE_ARGS.join(" ")).toContain("--cap-drop ALL");
    expect(args.at(-1)).toBe("--unshare-net");
    // The network-only scope's private /tmp and /run are directories of the run directory.
    expect(maskDirs).toEqual(["/tmp/run-1/0", "/tmp/run-1/1", "/tmp/run-1/2"]);
    expect(args.join(" ")).toContain("--bind /tmp/run-1/0 /tmp --bind /tmp/run-1/1 /run");
  });

  it("builds the workspace scope's fresh root without mask directories, and no --unshare-net without a network scope", () => {
    const { args, maskDirs } = scopeArgs({
      parsed: { filesystemScope: "workspace", networkScope: null },
      layout,
      mounts: { ...mounts, masks: [] },
      runDir: null,
      proxyMount: null,
      runnerIsRoot: true,
      initMask: null,
    });
    expect(maskDirs).toEqual([]);
    expect(args).toContain("--tmpfs");
    expect(args).not.toContain("--unshare-net");
  });
});
