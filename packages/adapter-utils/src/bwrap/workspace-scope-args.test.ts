import { describe, expect, it } from "vitest";
import { buildWorkspaceScopeArgs } from "./workspace-scope-args.js";
import { binds, dir, merged, PRIVATE, plan, split } from "./workspace-scope-plan.js";

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

  it("binds aliases to their workspace target", () => {
    const ops = binds(buildWorkspaceScopeArgs(plan(merged, { aliases: [{ path: "/app", target: "/ws" }] })));
    expect(ops).toContainEqual({ op: "--bind", source: "/ws", dest: "/app" });
  });

  it("puts its own /proc, /dev and /sys back right after a requested /, before a deeper request in them", () => {
    const layout = new Map([...merged, ["/", dir], ["/dev/shm/ws", dir]]);
    const text = buildWorkspaceScopeArgs(
      plan(layout, {
        mounts: [
          { path: "/", access: "ro" },
          { path: "/dev/shm/ws", access: "rw" },
        ],
      }),
    ).join(" ");
    // After the requests, `--dev /dev` landed on the workspace and bwrap could not chdir there.
    expect(text).toContain(
      "--ro-bind / / --proc /proc --ro-bind /proc/sys /proc/sys --tmpfs /proc/1 --remount-ro /proc/1 --dev /dev --tmpfs /sys --remount-ro /sys --dir /dev/shm --bind /dev/shm/ws /dev/shm/ws",
    );
  });

  it("binds a requested /dev/shm over its own /dev put back after a requested / (not taken as shown by /)", () => {
    const layout = new Map([...merged, ["/", dir], ["/dev/shm", dir]]);
    const text = buildWorkspaceScopeArgs(
      plan(layout, {
        mounts: [
          { path: "/", access: "ro" },
          { path: "/dev/shm", access: "ro" },
        ],
      }),
    ).join(" ");
    expect(text).toContain("--dev /dev --tmpfs /sys --remount-ro /sys --ro-bind /dev/shm /dev/shm");
  });

  it("makes each directory between a writable bind and a resolver file a mount point, right after it", () => {
    const layout = new Map([...split, ["/", dir], ["/etc/app", dir]]);
    const args = buildWorkspaceScopeArgs(
      plan(layout, {
        mounts: [
          { path: "/", access: "rw" },
          { path: "/etc/app", access: "ro" },
        ],
      }),
    );
    const text = args.join(" ");
    // `mv /etc /etc.old` took the read-only /etc/hosts along; a mount point is not renamed.
    expect(text).toContain("--bind / / --proc /proc");
    expect(text).toContain("--tmpfs /sys --remount-ro /sys --bind /etc /etc --ro-bind /etc/app /etc/app");
    expect(text.lastIndexOf("--ro-bind /etc/hosts /etc/hosts")).toBeGreaterThan(
      text.indexOf("--bind /etc /etc"),
    );
  });

  it("refuses a resolver link shown writable for a root runner only", () => {
    const request = { mounts: [{ path: "/etc", access: "rw" as const }] };
    const layout = new Map([...merged, ["/etc", dir]]);
    expect(() => buildWorkspaceScopeArgs(plan(layout, request))).toThrow(
      expect.objectContaining({ code: "ERR_SANDBOX_RESOLVER_LINK_WRITABLE" }),
    );
    // Another runner's program writes none of root's files: the link is safe from it.
    expect(() => buildWorkspaceScopeArgs(plan(layout, { ...request, runnerIsRoot: false }))).not.toThrow();
  });
});
