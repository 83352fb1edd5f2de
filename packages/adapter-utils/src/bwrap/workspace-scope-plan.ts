import type { HostLayout, HostPathKind } from "./host-layout.js";
import { SYSTEM_READ_PATHS } from "./system-paths.js";
import type { WorkspaceScopePlan } from "./workspace-scope-args.js";

/** The hosts and plan the workspace scope's argv tests start from (test support). */
export const dir: HostPathKind = { kind: "directory" };
export const file: HostPathKind = { kind: "file" };
export const link = (target: string, resolved: string | null): HostPathKind => ({
  kind: "symlink",
  target,
  resolved,
});

/** Debian 12 / Fedora: `/bin`, `/sbin`, `/lib`, `/lib64` are links into `/usr`. */
export const merged: HostLayout = new Map<string, HostPathKind>([
  ["/usr", dir],
  ["/proc/sys", dir],
  ["/bin", link("usr/bin", "/usr/bin")],
  ["/sbin", link("usr/sbin", "/usr/sbin")],
  ["/lib", link("usr/lib", "/usr/lib")],
  ["/lib64", link("usr/lib64", "/usr/lib64")],
  ["/etc/ssl", dir],
  ["/etc/hosts", file],
  [
    "/etc/resolv.conf",
    link("../run/systemd/resolve/stub-resolv.conf", "/run/systemd/resolve/stub-resolv.conf"),
  ],
  ["/etc/localtime", link("/usr/share/zoneinfo/Etc/UTC", "/usr/share/zoneinfo/Etc/UTC")],
  ["/etc/timezone", link("/nowhere", null)],
  ["/ws", dir],
  ["/ws/.git", dir],
  ["/home/u/.cache", dir],
]);

/** Older Debian / Alpine: real directories. */
export const split: HostLayout = new Map<string, HostPathKind>([
  ["/usr", dir],
  ["/bin", dir],
  ["/sbin", dir],
  ["/lib", dir],
  ["/etc/hosts", file],
  ["/ws", dir],
]);

export function plan(layout: HostLayout, overrides: Partial<WorkspaceScopePlan> = {}): WorkspaceScopePlan {
  return {
    layout,
    systemPaths: SYSTEM_READ_PATHS,
    secretPaths: [],
    mounts: [{ path: "/ws", access: "rw" }],
    aliases: [],
    proxyMount: null,
    socketRoots: ROOTS,
    initMask: null,
    runnerIsRoot: true,
    ...overrides,
  };
}

export const ROOTS = [
  "/dev/shm/paperclip-sandbox-sockets-1000",
  "/tmp/paperclip-sandbox-sockets-1000",
  "/run/user/1000/paperclip-sandbox-sockets-1000",
];
export const PRIVATE = "/dev/shm/paperclip-sandbox-sockets-1000/paperclip-network-sandbox-abc";
/** `layout` plus the socket roots, which exist on the host once a run used them. */
export const rooted = (layout: HostLayout, ...more: string[]): HostLayout =>
  new Map<string, HostPathKind>([...layout, ...[...ROOTS, ...more].map((root) => [root, dir] as const)]);

/** Destinations of bind operations, with their kind. */
export function binds(args: string[]): { op: string; source: string; dest: string }[] {
  const result: { op: string; source: string; dest: string }[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const op = args[index]!;
    if (op === "--bind" || op === "--ro-bind" || op === "--symlink") {
      result.push({ op, source: args[index + 1]!, dest: args[index + 2]! });
      index += 2;
    }
  }
  return result;
}
