import { describe, expect, it } from "vitest";
import type { HostLayout } from "./host-layout.js";
import { buildNetworkOnlyScopeArgs } from "./network-only-scope-args.js";
import { dir, layout, PRIVATE, plan, ROOTS } from "./network-only-scope-plan.js";

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
    expect(args.slice(7, 10)).toEqual(["--ro-bind", "/proc/sys", "/proc/sys"]);
  });

  it("binds /sys read-only after the other mounts but /proc/1 and the proxy's, so fewer table reads list its submounts", () => {
    const { args } = buildNetworkOnlyScopeArgs(
      plan({ initMask: "/shim", proxyMount: { source: `${PRIVATE}/s`, dest: "/tmp/p" } }),
    );
    expect(args.slice(-9)).toEqual([
      ...["--ro-bind", "/sys", "/sys"],
      ...["--ro-bind", "/shim", "/proc/1"],
      ...["--ro-bind", `${PRIVATE}/s`, "/tmp/p"],
    ]);
    expect(args.filter((arg) => arg === "/sys")).toHaveLength(2);
  });

  it("keeps /sys right after /proc/sys when a later mount lies in it, so that mount stays on top", () => {
    const sysLayout: HostLayout = new Map([...layout, ["/sys/run", dir]]);
    const { args } = buildNetworkOnlyScopeArgs(
      plan({ layout: sysLayout, maskedPaths: ["/tmp", "/run", "/sys/run"] }),
    );
    expect(args.slice(7, 13)).toEqual(["--ro-bind", "/proc/sys", "/proc/sys", "--ro-bind", "/sys", "/sys"]);
    expect(args.indexOf("/sys/run")).toBeGreaterThan(13);
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
      `--bind /run/user/1000 /run/user/1000 --bind ${maskDirs[2]} ${ROOTS[2]} --ro-bind /sys /sys --ro-bind ${maskDirs[3]} /proc/1 --ro-bind ${PRIVATE}`,
    );
    expect(args).not.toContain("--tmpfs");
  });
});
