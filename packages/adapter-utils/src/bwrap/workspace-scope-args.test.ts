import { describe, expect, it } from "vitest";
import type { HostLayout, HostPathKind } from "./host-layout.js";
import { SYSTEM_READ_PATHS } from "./system-paths.js";
import { buildWorkspaceScopeArgs, type WorkspaceScopePlan } from "./workspace-scope-args.js";

const dir: HostPathKind = { kind: "directory" };
const file: HostPathKind = { kind: "file" };
const link = (target: string, resolved: string | null): HostPathKind => ({
  kind: "symlink",
  target,
  resolved,
});

/** Debian 12 / Fedora: `/bin`, `/sbin`, `/lib`, `/lib64` are links into `/usr`. */
const merged: HostLayout = new Map<string, HostPathKind>([
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
const split: HostLayout = new Map<string, HostPathKind>([
  ["/usr", dir],
  ["/bin", dir],
  ["/sbin", dir],
  ["/lib", dir],
  ["/etc/hosts", file],
  ["/ws", dir],
]);

function plan(layout: HostLayout, overrides: Partial<WorkspaceScopePlan> = {}): WorkspaceScopePlan {
  return {
    layout,
    systemPaths: SYSTEM_READ_PATHS,
    secretPaths: [],
    mounts: [{ path: "/ws", access: "rw" }],
    aliases: [],
    proxyMount: null,
    socketRoots: ROOTS,
    initMask: null,
    ...overrides,
  };
}

const ROOTS = [
  "/dev/shm/paperclip-sandbox-sockets-1000",
  "/tmp/paperclip-sandbox-sockets-1000",
  "/run/user/1000/paperclip-sandbox-sockets-1000",
];
const PRIVATE = "/dev/shm/paperclip-sandbox-sockets-1000/paperclip-network-sandbox-abc";
/** `layout` plus the socket roots, which exist on the host once a run used them. */
const rooted = (layout: HostLayout, ...more: string[]): HostLayout =>
  new Map<string, HostPathKind>([...layout, ...[...ROOTS, ...more].map((root) => [root, dir] as const)]);

/** Destinations of bind operations, with their kind. */
function binds(args: string[]): { op: string; source: string; dest: string }[] {
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

describe("buildWorkspaceScopeArgs", () => {
  it("with tmpfsSize, caps the root, /dev/shm and /tmp, and seals /dev's own tmpfs last", () => {
    const args = buildWorkspaceScopeArgs(plan(merged, { tmpfsSize: 65536 }));
    expect(args.slice(0, 16)).toEqual([
      "--size",
      "65536",
      "--tmpfs",
      "/",
      "--proc",
      "/proc",
      "--dev",
      "/dev",
      "--size",
      "65536",
      "--tmpfs",
      "/dev/shm",
      "--size",
      "65536",
      "--tmpfs",
      "/tmp",
    ]);
    // bwrap's --size does not reach --dev: /dev takes no file once every mount below it is made.
    expect(args.slice(-2)).toEqual(["--remount-ro", "/dev"]);
    const uncapped = buildWorkspaceScopeArgs(plan(merged));
    expect(uncapped).not.toContain("--size");
    expect(uncapped).not.toContain("/dev/shm");
    expect(uncapped.join(" ")).not.toContain("--remount-ro /dev");
  });
  it("starts from a fresh root with its own /proc, /dev and /tmp", () => {
    expect(buildWorkspaceScopeArgs(plan(merged)).slice(0, 8)).toEqual([
      "--tmpfs",
      "/",
      "--proc",
      "/proc",
      "--dev",
      "/dev",
      "--tmpfs",
      "/tmp",
    ]);
  });

  it("shows /proc/sys read-only over the sandbox's own /proc", () => {
    expect(buildWorkspaceScopeArgs(plan(merged)).slice(8, 11)).toEqual([
      "--ro-bind",
      "/proc/sys",
      "/proc/sys",
    ]);
    expect(buildWorkspaceScopeArgs(plan(split))).not.toContain("/proc/sys");
  });

  it("hides bwrap's pid 1 under an empty read-only tmpfs without a shim's directory (its /proc/1/mem is writable otherwise)", () => {
    expect(buildWorkspaceScopeArgs(plan(merged)).slice(11, 15)).toEqual([
      "--tmpfs",
      "/proc/1",
      "--remount-ro",
      "/proc/1",
    ]);
  });

  it("shows a given directory (the exec shim's) read-only over /proc/1 instead of the tmpfs", () => {
    const shimDir = "/dev/shm/paperclip-sandbox-sockets-1000/native-abc";
    const args = buildWorkspaceScopeArgs(plan(merged, { initMask: shimDir }));
    expect(args.slice(11, 14)).toEqual(["--ro-bind", shimDir, "/proc/1"]);
    expect(args).not.toContain("--remount-ro");
  });

  it("recreates merged-/usr links with their own targets and never binds onto them", () => {
    const ops = binds(
      buildWorkspaceScopeArgs(
        plan(merged, {
          mounts: [
            // Sources are real paths, as the build resolves them.
            { path: "/bin", access: "ro", source: "/usr/bin" },
            { path: "/lib/x86_64-linux-gnu", access: "ro", source: "/usr/lib/x86_64-linux-gnu" },
            { path: "/ws", access: "rw" },
          ],
        }),
      ),
    );
    expect(ops).toContainEqual({ op: "--symlink", source: "usr/bin", dest: "/bin" });
    expect(ops).toContainEqual({ op: "--symlink", source: "usr/lib64", dest: "/lib64" });
    expect(ops).toContainEqual({ op: "--ro-bind", source: "/usr", dest: "/usr" });
    const linkDests = new Set(["/bin", "/sbin", "/lib", "/lib64"]);
    for (const op of ops.filter((entry) => entry.op !== "--symlink")) {
      expect(linkDests.has(op.dest) || [...linkDests].some((l) => op.dest.startsWith(`${l}/`))).toBe(false);
    }
    // The executable directory /bin is /usr/bin, already visible read-only.
    expect(ops.filter((entry) => entry.dest === "/usr/bin")).toEqual([]);
  });

  it("binds real directories on a split layout", () => {
    const ops = binds(buildWorkspaceScopeArgs(plan(split)));
    for (const name of ["/bin", "/sbin", "/lib", "/usr"]) {
      expect(ops).toContainEqual({ op: "--ro-bind", source: name, dest: name });
    }
    expect(ops.some((entry) => entry.op === "--symlink")).toBe(false);
    expect(ops.some((entry) => entry.dest === "/lib64")).toBe(false);
  });

  it("keeps a symlinked /etc file usable: the link when its target is visible, else the resolved file", () => {
    const ops = binds(buildWorkspaceScopeArgs(plan(merged)));
    expect(ops).toContainEqual({
      op: "--symlink",
      source: "/usr/share/zoneinfo/Etc/UTC",
      dest: "/etc/localtime",
    });
    expect(ops).toContainEqual({
      op: "--ro-bind",
      source: "/run/systemd/resolve/stub-resolv.conf",
      dest: "/etc/resolv.conf",
    });
    // A dangling link is skipped rather than failing the start.
    expect(ops.some((entry) => entry.dest === "/etc/timezone")).toBe(false);
  });

  it("mounts the workspace before a read-only path inside it, so the read-only mount stays on top", () => {
    const ops = binds(
      buildWorkspaceScopeArgs(
        plan(merged, {
          mounts: [
            { path: "/ws/.git", access: "ro" },
            { path: "/ws", access: "rw" },
          ],
        }),
      ),
    );
    const ws = ops.findIndex((entry) => entry.dest === "/ws");
    const git = ops.findIndex((entry) => entry.dest === "/ws/.git");
    expect(ops[ws]!.op).toBe("--bind");
    expect(ops[git]!.op).toBe("--ro-bind");
    expect(ws).toBeLessThan(git);
  });

  it("mounts the workspace read-only when asked", () => {
    const ops = binds(buildWorkspaceScopeArgs(plan(merged, { mounts: [{ path: "/ws", access: "ro" }] })));
    expect(ops).toContainEqual({ op: "--ro-bind", source: "/ws", dest: "/ws" });
  });

  it("creates missing parents with --dir, skips missing paths and shows the private socket directory at the proxy directory, read-only", () => {
    const args = buildWorkspaceScopeArgs(
      plan(merged, {
        mounts: [
          { path: "/home/u/.cache", access: "rw" },
          { path: "/missing", access: "ro" },
          { path: "/ws", access: "rw" },
        ],
        proxyMount: { source: PRIVATE, dest: "/tmp/paperclip-network-sandbox-abc" },
      }),
    );
    expect(args.join(" ")).toContain("--dir /home --dir /home/u --bind /home/u/.cache /home/u/.cache");
    expect(args).not.toContain("/missing");
    // The private directory is bound last, at upstream's <proxydir>, and nowhere else.
    expect(args.slice(-3)).toEqual(["--ro-bind", PRIVATE, "/tmp/paperclip-network-sandbox-abc"]);
    expect(args.filter((arg) => arg.startsWith("/dev/shm"))).toEqual([PRIVATE]);
  });

  it("masks nothing when no requested path shows a socket root (the fresh root hides them all)", () => {
    expect(
      buildWorkspaceScopeArgs(plan(merged)).filter((arg) => arg.includes("paperclip-sandbox-sockets")),
    ).toEqual([]);
  });

  it("masks every socket root a requested ancestor would show, after the binds and before the proxy directory", () => {
    const args = buildWorkspaceScopeArgs(
      plan(rooted(merged, "/"), {
        mounts: [
          { path: "/", access: "ro" },
          { path: "/ws", access: "rw" },
        ],
        proxyMount: { source: PRIVATE, dest: "/tmp/paperclip-network-sandbox-abc" },
      }),
    );
    const text = args.join(" ");
    expect(text).toContain(
      `--tmpfs ${ROOTS[0]} --tmpfs ${ROOTS[1]} --tmpfs ${ROOTS[2]} --ro-bind ${PRIVATE} /tmp/paperclip-network-sandbox-abc`,
    );
  });

  it("masks the socket root below a requested /tmp, /dev/shm or runtime directory", () => {
    for (const [request, root] of [
      ["/tmp", ROOTS[1]],
      ["/dev", ROOTS[0]],
      ["/run/user/1000", ROOTS[2]],
    ] as const) {
      const layout = rooted(merged, request);
      const args = buildWorkspaceScopeArgs(plan(layout, { mounts: [{ path: request, access: "ro" }] }));
      expect(args.slice(-2)).toEqual(["--tmpfs", root]);
    }
  });

  it("does not mask a root that does not exist on the host (bwrap could not mount there; nothing is there)", () => {
    const args = buildWorkspaceScopeArgs(
      plan(new Map([...merged, ["/dev", dir]]), { mounts: [{ path: "/dev", access: "ro" }] }),
    );
    expect(args).not.toContain("--tmpfs /dev/shm/paperclip-sandbox-sockets-1000");
    expect(args.slice(-3)).toEqual(["--ro-bind", "/dev", "/dev"]);
  });

  it("masks a requested path inside a socket root at its destination", () => {
    const inside = `${ROOTS[0]}/paperclip-network-sandbox-zzz`;
    const layout = rooted(merged, inside);
    const args = buildWorkspaceScopeArgs(plan(layout, { mounts: [{ path: inside, access: "ro" }] }));
    expect(args.slice(-2)).toEqual(["--tmpfs", inside]);
  });

  it("masks a socket root an alias would show at the alias path", () => {
    const layout = rooted(merged, "/tmp");
    const args = buildWorkspaceScopeArgs(
      plan(layout, { mounts: [{ path: "/tmp", access: "rw" }], aliases: [{ path: "/app", target: "/tmp" }] }),
    );
    expect(args.join(" ")).toContain(`--tmpfs ${ROOTS[1]} --tmpfs /app/paperclip-sandbox-sockets-1000`);
  });

  it("binds aliases to their workspace target", () => {
    const ops = binds(buildWorkspaceScopeArgs(plan(merged, { aliases: [{ path: "/app", target: "/ws" }] })));
    expect(ops).toContainEqual({ op: "--bind", source: "/ws", dest: "/app" });
  });
});
