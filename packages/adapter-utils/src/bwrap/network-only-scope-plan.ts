import type { HostLayout, HostPathKind } from "./host-layout.js";
import type { NetworkOnlyScopePlan } from "./network-only-scope-args.js";

/** The host and plan the network-only scope's argv tests start from (test support). */
export const dir: HostPathKind = { kind: "directory" };
export const layout: HostLayout = new Map<string, HostPathKind>([
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
  ["/run/user/1000/paperclip-sandbox-sockets-1000", dir],
]);

export const ROOTS = [
  "/dev/shm/paperclip-sandbox-sockets-1000",
  "/tmp/paperclip-sandbox-sockets-1000",
  "/run/user/1000/paperclip-sandbox-sockets-1000",
];
export const PRIVATE = "/dev/shm/paperclip-sandbox-sockets-1000/paperclip-network-sandbox-abc";

export function plan(overrides: Partial<NetworkOnlyScopePlan> = {}): NetworkOnlyScopePlan {
  return {
    layout,
    maskedPaths: ["/tmp", "/run", "/var/run", "/run/user/1000"],
    maskRoot: "/tmp/paperclip-network-sandbox-abc/mask",
    mounts: [{ path: "/tmp/ws", access: "rw" }],
    proxyMount: null,
    socketRoots: ROOTS,
    runnerIsRoot: false,
    initMask: null,
    ...overrides,
  };
}
