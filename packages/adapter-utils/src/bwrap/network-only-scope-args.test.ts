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
  ["/run/user/1000/paperclip-sandbox-sockets-1000", dir],
]);

const ROOTS = [
  "/dev/shm/paperclip-sandbox-sockets-1000",
  "/tmp/paperclip-sandbox-sockets-1000",
  "/run/user/1000/paperclip-sandbox-sockets-1000",
];
const PRIVATE = "/dev/shm/paperclip-sandbox-sockets-1000/paperclip-network-sandbox-abc";

function plan(overrides: Partial<NetworkOnlyScopePlan> = {}): NetworkOnlyScopePlan {
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

describe("buildNetworkOnlyScopeArgs", () => {
  it("binds a workspace in the host's /dev/shm back into the sandbox's own, parents made there", () => {
    const shmLayout: HostLayout = new Map([...layout, ["/dev/shm/a/ws", dir]]);
    const { args } = buildNetworkOnlyScopeArgs(
      plan({ layout: shmLayout, mounts: [{ path: "/dev/shm/a/ws", access: "rw" }] }),
    );
    const at = args.indexOf("/dev/shm/a/ws");
    expect(args.slice(at - 3, at + 2)).toEqual([
      "--dir",
      "/dev/shm/a",
      "--bind",
      "/dev/shm/a/ws",
      "/dev/shm/a/ws",
    ]);
    expect(args).not.toContain("/dev/shm/paperclip-sandbox-sockets-1000");
  });

  it("with tmpfsSize, makes every private directory a tmpfs of that size instead of a bind", () => {
    const { args, maskDirs } = buildNetworkOnlyScopeArgs(plan({ tmpfsSize: 65536 }));
    const sized = args.flatMap((arg, index) => (arg === "--size" ? [args.slice(index, index + 4)] : []));
    expect(sized).toEqual([
      ["--size", "65536", "--tmpfs", "/dev/shm"],
      ["--size", "65536", "--tmpfs", "/tmp"],
      ["--size", "65536", "--tmpfs", "/run"],
    ]);
    // bwrap's --size does not reach --dev: /dev takes no file once every mount below it is made.
    expect(args.slice(-2)).toEqual(["--remount-ro", "/dev"]);
    // Only the read-only /proc/1 mask is still a directory of the run's.
    expect(maskDirs).toHaveLength(1);
  });

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
      "/tmp/paperclip-network-sandbox-abc/mask/2",
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
        proxyMount: { source: PRIVATE, dest: "/tmp/paperclip-network-sandbox-abc" },
      }),
    );
    const text = args.join(" ");
    expect(text).toContain("--bind /tmp/ws /tmp/ws --ro-bind /tmp/ws/ro /tmp/ws/ro");
    // Outside the masked paths the host tree is already visible.
    expect(args).not.toContain("/home/u/ws");
  });

  it("shows the private socket directory at the proxy directory, last and read-only, under a masked /tmp", () => {
    const { args } = buildNetworkOnlyScopeArgs(
      plan({ proxyMount: { source: PRIVATE, dest: "/tmp/paperclip-network-sandbox-abc" } }),
    );
    expect(args.slice(-3)).toEqual(["--ro-bind", PRIVATE, "/tmp/paperclip-network-sandbox-abc"]);
    expect(args).not.toContain("--tmpfs");
  });

  it("creates the parents of a proxy directory deep under a masked path", () => {
    const { args } = buildNetworkOnlyScopeArgs(
      plan({ proxyMount: { source: PRIVATE, dest: "/run/user/1000/deep/paperclip-network-sandbox-abc" } }),
    );
    expect(args.join(" ")).toContain(
      `--dir /run/user --dir /run/user/1000 --dir /run/user/1000/deep --ro-bind ${PRIVATE} /run/user/1000/deep/paperclip-network-sandbox-abc`,
    );
  });

  it("binds the private directory over a proxy directory the host tree shows (a TMPDIR outside the masks)", () => {
    const { args } = buildNetworkOnlyScopeArgs(
      plan({ proxyMount: { source: PRIVATE, dest: "/home/u/tmp/paperclip-network-sandbox-abc" } }),
    );
    expect(args.slice(-3)).toEqual(["--ro-bind", PRIVATE, "/home/u/tmp/paperclip-network-sandbox-abc"]);
    expect(args).not.toContain("--dir");
  });

  it("hides bwrap's pid 1 under an empty read-only directory (its /proc/1/mem is writable otherwise)", () => {
    const { args, maskDirs } = buildNetworkOnlyScopeArgs(plan());
    expect(args.join(" ")).toContain(`--ro-bind ${maskDirs[2]} /proc/1`);
    expect(args.indexOf("/proc/1")).toBeGreaterThan(args.indexOf("/proc"));
  });

  it("shows a given directory (the exec shim's) over /proc/1 instead of a fresh one", () => {
    const shimDir = "/dev/shm/paperclip-sandbox-sockets-1000/native-abc";
    const { args, maskDirs } = buildNetworkOnlyScopeArgs(plan({ initMask: shimDir }));
    expect(maskDirs).toHaveLength(2);
    expect(args.slice(-3)).toEqual(["--ro-bind", shimDir, "/proc/1"]);
  });

  it("masks nothing more when no bound-back path shows a socket root (/dev, /tmp and /run hide them)", () => {
    const { maskDirs } = buildNetworkOnlyScopeArgs(plan());
    expect(maskDirs).toHaveLength(3);
  });

  it("does not mask a root missing on the host", () => {
    const missing = new Map(layout);
    missing.delete("/run/user/1000/paperclip-sandbox-sockets-1000");
    const { maskDirs } = buildNetworkOnlyScopeArgs(
      plan({ layout: missing, mounts: [{ path: "/run/user/1000", access: "rw" }] }),
    );
    expect(maskDirs).toHaveLength(3);
  });

  it("masks, with a private directory and no tmpfs, a socket root a bound-back path shows", () => {
    const { args, maskDirs } = buildNetworkOnlyScopeArgs(
      plan({
        mounts: [{ path: "/run/user/1000", access: "rw" }],
        proxyMount: { source: PRIVATE, dest: "/tmp/paperclip-network-sandbox-abc" },
      }),
    );
    expect(maskDirs).toHaveLength(4);
    expect(args.join(" ")).toContain(
      `--bind /run/user/1000 /run/user/1000 --bind ${maskDirs[2]} ${ROOTS[2]} --ro-bind ${maskDirs[3]} /proc/1 --ro-bind ${PRIVATE}`,
    );
    expect(args).not.toContain("--tmpfs");
  });

  it.each([
    ["a file", { kind: "file" } as HostPathKind, "--ro-bind /etc/resolv.conf /etc/resolv.conf"],
    [
      "a link out of the masked paths, by its real path",
      {
        kind: "symlink",
        target: "../etc/resolvconf/run/resolv.conf",
        resolved: "/etc/resolvconf/run/resolv.conf",
      } as HostPathKind,
      "--ro-bind /etc/resolvconf/run/resolv.conf /etc/resolvconf/run/resolv.conf",
    ],
    [
      "a link into /run (the sandbox's private one)",
      {
        kind: "symlink",
        target: "../run/systemd/resolve/stub-resolv.conf",
        resolved: "/run/systemd/resolve/stub-resolv.conf",
      } as HostPathKind,
      null,
    ],
    ["a dangling link", { kind: "symlink", target: "nowhere", resolved: null } as HostPathKind, null],
    ["missing", { kind: "missing" } as HostPathKind, null],
  ])(
    "shows a non-root runner the host resolver's files read-only: /etc/hosts and /etc/resolv.conf as %s",
    (_, resolv, bind) => {
      const withFiles = new Map(layout);
      withFiles.set("/etc/hosts", { kind: "file" });
      withFiles.set("/etc/resolv.conf", resolv);
      const { args } = buildNetworkOnlyScopeArgs(plan({ layout: withFiles }));
      const text = args.join(" ");
      expect(args.slice(13, 16)).toEqual(["--ro-bind", "/etc/hosts", "/etc/hosts"]);
      if (bind) expect(text).toContain(`--ro-bind /etc/hosts /etc/hosts ${bind} --bind`);
      else expect(args.filter((arg) => arg.includes("resolv"))).toEqual([]);
    },
  );

  const rootLayout = (resolv: HostPathKind): HostLayout =>
    new Map<string, HostPathKind>([
      ...layout,
      ["/etc", dir],
      ["/etc/hosts", { kind: "file" }],
      ["/etc/resolv.conf", resolv],
      ["/etc/app", dir],
      ["/etc/app/ro", dir],
    ]);

  it.each([
    ["a file", { kind: "file" } as HostPathKind],
    [
      "a link into /run, which the per-file binds left writable",
      {
        kind: "symlink",
        target: "../run/systemd/resolve/stub-resolv.conf",
        resolved: "/run/systemd/resolve/stub-resolv.conf",
      } as HostPathKind,
    ],
    ["a dangling link", { kind: "symlink", target: "nowhere", resolved: null } as HostPathKind],
  ])("shows a root runner all of /etc read-only, /etc/resolv.conf as %s", (_, resolv) => {
    const { args } = buildNetworkOnlyScopeArgs(plan({ layout: rootLayout(resolv), runnerIsRoot: true }));
    expect(args.slice(13, 16)).toEqual(["--ro-bind", "/etc", "/etc"]);
    // Nothing in /etc is bound again: the links are protected with the directory.
    expect(args.filter((arg) => arg.startsWith("/etc/"))).toEqual([]);
    expect(args.indexOf("/etc")).toBeLessThan(args.indexOf("/tmp"));
  });

  it("binds a root runner's resolver link target outside /etc and the masks by its real path", () => {
    const resolv: HostPathKind = {
      kind: "symlink",
      target: "/var/lib/resolvconf/resolv.conf",
      resolved: "/var/lib/resolvconf/resolv.conf",
    };
    const { args } = buildNetworkOnlyScopeArgs(plan({ layout: rootLayout(resolv), runnerIsRoot: true }));
    expect(args.slice(13, 19)).toEqual([
      "--ro-bind",
      "/etc",
      "/etc",
      "--ro-bind",
      "/var/lib/resolvconf/resolv.conf",
      "/var/lib/resolvconf/resolv.conf",
    ]);
  });

  it("binds a root runner's requested paths in /etc again, after it, with the caller's access", () => {
    const { args } = buildNetworkOnlyScopeArgs(
      plan({
        layout: rootLayout({ kind: "file" }),
        runnerIsRoot: true,
        mounts: [
          { path: "/etc/app/ro", access: "ro" },
          { path: "/etc/app", access: "rw" },
          { path: "/etc/missing", access: "rw" },
          { path: "/tmp/ws", access: "rw" },
        ],
      }),
    );
    expect(args.join(" ")).toContain(
      "--ro-bind /etc /etc --bind /etc/app /etc/app --ro-bind /etc/app/ro /etc/app/ro --bind",
    );
    expect(args).not.toContain("/etc/missing");
  });

  it("shows a root runner's resolver files read-only again over a writable /etc it asked for", () => {
    const { args } = buildNetworkOnlyScopeArgs(
      plan({
        layout: rootLayout({ kind: "file" }),
        runnerIsRoot: true,
        mounts: [
          { path: "/etc", access: "rw" },
          { path: "/tmp/ws", access: "rw" },
        ],
      }),
    );
    const text = args.join(" ");
    expect(text).toContain("--ro-bind /etc /etc --bind /etc /etc");
    const writable = text.indexOf("--bind /etc /etc");
    expect(text.indexOf("--ro-bind /etc/hosts /etc/hosts")).toBeGreaterThan(writable);
    expect(text.indexOf("--ro-bind /etc/resolv.conf /etc/resolv.conf")).toBeGreaterThan(writable);
  });

  it("refuses a root runner's writable /etc that holds the resolver link", () => {
    const resolv: HostPathKind = {
      kind: "symlink",
      target: "../run/systemd/resolve/stub-resolv.conf",
      resolved: "/run/systemd/resolve/stub-resolv.conf",
    };
    const request = plan({
      layout: rootLayout(resolv),
      runnerIsRoot: true,
      mounts: [{ path: "/etc", access: "rw" }],
    });
    expect(() => buildNetworkOnlyScopeArgs(request)).toThrow(
      expect.objectContaining({ code: "ERR_SANDBOX_RESOLVER_LINK_WRITABLE" }),
    );
  });

  it("falls back to the per-file binds when /etc is not a directory", () => {
    const linked = new Map(rootLayout({ kind: "file" }));
    linked.set("/etc", { kind: "symlink", target: "private/etc", resolved: "/private/etc" });
    const { args } = buildNetworkOnlyScopeArgs(plan({ layout: linked, runnerIsRoot: true }));
    expect(args.slice(13, 19)).toEqual([
      "--ro-bind",
      "/etc/hosts",
      "/etc/hosts",
      "--ro-bind",
      "/etc/resolv.conf",
      "/etc/resolv.conf",
    ]);
  });
});
