import { describe, expect, it } from "vitest";
import type { HostLayout, HostPathKind } from "./host-layout.js";
import { buildNetworkOnlyScopeArgs, type NetworkOnlyScopePlan } from "./network-only-scope-args.js";

const dir: HostPathKind = { kind: "directory" };
const layout: HostLayout = new Map<string, HostPathKind>([
  ["/tmp", dir],
  ["/proc/sys", dir],
  ["/sys", dir],
  ["/run", dir],
  ["/var/run", { kind: "symlink", target: "/run", resolved: "/run" }],
  ["/run/user/1000", dir],
  ["/tmp/ws", dir],
  ["/tmp/ws/ro", dir],
  ["/home/u/ws", dir],
  ["/tmp/paperclip-network-sandbox-abc", dir],
]);

function plan(overrides: Partial<NetworkOnlyScopePlan> = {}): NetworkOnlyScopePlan {
  return {
    layout,
    maskedPaths: ["/tmp", "/run", "/var/run", "/run/user/1000"],
    maskRoot: "/tmp/paperclip-network-sandbox-abc/mask",
    mounts: [{ path: "/tmp/ws", access: "rw" }],
    proxyDir: null,
    ...overrides,
  };
}

describe("buildNetworkOnlyScopeArgs", () => {
  it("keeps the host tree, with its own /proc and /dev, and uses binds, not tmpfs", () => {
    const { args } = buildNetworkOnlyScopeArgs(plan());
    expect(args.slice(0, 7)).toEqual(["--bind", "/", "/", "--proc", "/proc", "--dev", "/dev"]);
    expect(args).not.toContain("--tmpfs");
    expect(args.slice(7, 13)).toEqual(["--ro-bind", "/proc/sys", "/proc/sys", "--ro-bind", "/sys", "/sys"]);
  });

  it("masks /tmp and /run with private directories, following /var/run to /run and skipping paths already masked", () => {
    const { args, maskDirs } = buildNetworkOnlyScopeArgs(plan());
    expect(maskDirs).toEqual([
      "/tmp/paperclip-network-sandbox-abc/mask/0",
      "/tmp/paperclip-network-sandbox-abc/mask/1",
    ]);
    expect(args.join(" ")).toContain("--bind /tmp/paperclip-network-sandbox-abc/mask/0 /tmp");
    expect(args.join(" ")).toContain("--bind /tmp/paperclip-network-sandbox-abc/mask/1 /run");
    expect(args).not.toContain("/var/run");
    expect(args).not.toContain("/run/user/1000");
  });

  it("binds back what the program needs under a masked path, parents first, nested access kept", () => {
    const { args } = buildNetworkOnlyScopeArgs(
      plan({
        mounts: [
          { path: "/tmp/ws/ro", access: "ro" },
          { path: "/tmp/ws", access: "rw" },
          { path: "/home/u/ws", access: "rw" },
        ],
        proxyDir: "/tmp/paperclip-network-sandbox-abc",
      }),
    );
    const text = args.join(" ");
    expect(text).toContain("--bind /tmp/ws /tmp/ws --ro-bind /tmp/ws/ro /tmp/ws/ro");
    expect(text).toContain("--ro-bind /tmp/paperclip-network-sandbox-abc /tmp/paperclip-network-sandbox-abc");
    // Outside the masked paths the host tree is already visible.
    expect(args).not.toContain("/home/u/ws");
  });
});
