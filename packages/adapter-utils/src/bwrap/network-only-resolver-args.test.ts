import { describe, expect, it } from "vitest";
import type { HostLayout, HostPathKind } from "./host-layout.js";
import { buildNetworkOnlyScopeArgs } from "./network-only-scope-args.js";
import { dir, layout, plan } from "./network-only-scope-plan.js";

/** The host resolver's files, which the host's proxy reads, kept from the program. */
describe("buildNetworkOnlyScopeArgs and the resolver files", () => {
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
      expect(args.slice(10, 13)).toEqual(["--ro-bind", "/etc/hosts", "/etc/hosts"]);
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
    expect(args.slice(10, 13)).toEqual(["--ro-bind", "/etc", "/etc"]);
    // Nothing in /etc is bound again: the links are protected with the directory.
    expect(args.filter((arg) => arg.startsWith("/etc/"))).toEqual([]);
    expect(args.indexOf("/etc")).toBeLessThan(args.indexOf("/tmp"));
  });

  it("binds a root runner's resolver link target outside /etc and the masks by its real path, its directories pinned", () => {
    const resolv: HostPathKind = {
      kind: "symlink",
      target: "/var/lib/resolvconf/resolv.conf",
      resolved: "/var/lib/resolvconf/resolv.conf",
    };
    const { args } = buildNetworkOnlyScopeArgs(plan({ layout: rootLayout(resolv), runnerIsRoot: true }));
    // The host tree is writable to it: `mv /var/lib/resolvconf` would take the read-only file along.
    expect(args.slice(10, 25).join(" ")).toBe(
      "--ro-bind /etc /etc --bind /var /var --bind /var/lib /var/lib --bind /var/lib/resolvconf /var/lib/resolvconf --ro-bind /var/lib/resolvconf/resolv.conf /var/lib/resolvconf/resolv.conf",
    );
  });

  it("pins no directory above a non-root runner's resolver file (it renames none of root's)", () => {
    const withFiles = new Map(layout);
    withFiles.set("/etc/hosts", { kind: "file", real: "/var/lib/etc/hosts" });
    const { args } = buildNetworkOnlyScopeArgs(plan({ layout: withFiles }));
    expect(args.slice(10, 13)).toEqual(["--ro-bind", "/var/lib/etc/hosts", "/var/lib/etc/hosts"]);
    expect(args).not.toContain("/var/lib");
  });

  it.each([false, true])(
    "pins the directories between a writable bind-back and the resolver file it shows (root runner: %s)",
    (runnerIsRoot) => {
      const resolvconf = new Map(
        rootLayout({
          kind: "symlink",
          target: "../run/resolvconf/resolv.conf",
          resolved: "/run/resolvconf/resolv.conf",
        }),
      );
      const { args } = buildNetworkOnlyScopeArgs(
        plan({ layout: resolvconf, runnerIsRoot, mounts: [{ path: "/run", access: "rw" }] }),
      );
      const text = args.join(" ");
      // Right after the bind-back, so `mv /run/resolvconf` fails (EBUSY); the file read-only after.
      expect(text).toContain("--bind /run /run --bind /run/resolvconf /run/resolvconf");
      expect(
        text.indexOf("--ro-bind /run/resolvconf/resolv.conf /run/resolvconf/resolv.conf"),
      ).toBeGreaterThan(text.indexOf("--bind /run/resolvconf /run/resolvconf"));
    },
  );

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

  it("falls back to the per-file binds, by real path and directories pinned, when /etc is not a directory", () => {
    const linked = new Map(rootLayout({ kind: "file", real: "/private/etc/resolv.conf" }));
    linked.set("/etc", { kind: "symlink", target: "private/etc", resolved: "/private/etc" });
    linked.set("/etc/hosts", { kind: "file", real: "/private/etc/hosts" });
    const { args } = buildNetworkOnlyScopeArgs(plan({ layout: linked, runnerIsRoot: true }));
    expect(args.slice(10, 22).join(" ")).toBe(
      [
        "--bind /private /private --bind /private/etc /private/etc",
        "--ro-bind /private/etc/hosts /private/etc/hosts --ro-bind /private/etc/resolv.conf /private/etc/resolv.conf",
      ].join(" "),
    );
  });
});
