import { describe, expect, it } from "vitest";
import { scopeArgs } from "../spawn-target/scope-args.js";
import { finalBinds } from "./final-binds.js";
import type { HostLayout, HostPathKind } from "./host-layout.js";

const dir: HostPathKind = { kind: "directory" };
const layout: HostLayout = new Map<string, HostPathKind>(
  ["/tmp", "/run", "/proc/sys", "/sys", "/etc", "/usr", "/ws", "/ws/cfg"].map((place) => [place, dir]),
);

/** The mounts the scope tests start from: a workspace with a read-only directory in it. */
const wsMounts = {
  requests: [
    { path: "/ws", access: "rw" as const },
    { path: "/ws/cfg", access: "ro" as const },
  ],
  aliases: [],
  masks: ["/tmp", "/run"],
  socketRoots: ["/dev/shm/paperclip-sandbox-sockets-0"],
};

/** A builder's argv for `parsed` and `mounts` over `layout`, the rest as a run gives it. */
function argvOf(
  parsed: Parameters<typeof scopeArgs>[0]["parsed"],
  overrides: Partial<Parameters<typeof scopeArgs>[0]> = {},
): string[] {
  return scopeArgs({
    parsed,
    layout,
    mounts: wsMounts,
    runDir: "/tmp/run-1",
    proxyMount: null,
    runnerIsRoot: true,
    initMask: "/dev/shm/paperclip-sandbox-sockets-0/native-1",
    ...overrides,
  }).args;
}

const WORKSPACE = { filesystemScope: "workspace" as const, networkScope: null };
const NETWORK_ONLY = { filesystemScope: null, networkScope: "deny" as const };
/**
 * A requested `/` (written, by a runner other than root, who may), with /etc/hosts and
 * /etc/resolv.conf restored read-only and their directories pinned.
 */
const rootRequested = {
  runnerIsRoot: false,
  layout: new Map<string, HostPathKind>([
    ...layout,
    ["/", dir],
    ["/etc/app", dir],
    ["/etc/hosts", { kind: "file" }],
    [
      "/etc/resolv.conf",
      { kind: "symlink", target: "../run/resolvconf/resolv.conf", resolved: "/run/resolvconf/resolv.conf" },
    ],
    ["/run/resolvconf", dir],
  ]),
  mounts: {
    ...wsMounts,
    requests: [
      { path: "/", access: "rw" as const },
      { path: "/etc/app", access: "ro" as const },
    ],
  },
};
const proxied = {
  proxyMount: { source: "/dev/shm/paperclip-sandbox-sockets-0/proxy-1", dest: "/tmp/run-1" },
};

describe("finalBinds", () => {
  it.each([
    ["workspace scope", WORKSPACE, {}, { source: "/ws/cfg", dest: "/ws/cfg" }],
    ["network-only scope", NETWORK_ONLY, {}, { source: "/ws/cfg", dest: "/ws/cfg" }],
    [
      "workspace scope, tmpfs capped",
      { ...WORKSPACE, tmpfsSize: 65536 },
      {},
      { source: "/ws/cfg", dest: "/ws/cfg" },
    ],
    [
      "network-only scope, tmpfs capped",
      { ...NETWORK_ONLY, tmpfsSize: 65536 },
      {},
      { source: "/ws/cfg", dest: "/ws/cfg" },
    ],
    ["workspace scope, `/` requested", WORKSPACE, rootRequested, { source: "/etc/app", dest: "/etc/app" }],
    [
      "network-only scope, `/` requested",
      NETWORK_ONLY,
      rootRequested,
      { source: "/etc/app", dest: "/etc/app" },
    ],
    [
      "workspace scope, the proxy's directory",
      { ...WORKSPACE, networkScope: "allowlist" as const },
      proxied,
      proxied.proxyMount,
    ],
    [
      "network-only scope, the proxy's directory",
      { ...NETWORK_ONLY, networkScope: "allowlist" as const },
      proxied,
      proxied.proxyMount,
    ],
  ])("walks every option the builders emit (%s)", (_, parsed, overrides, bind) => {
    expect(finalBinds(argvOf(parsed, overrides))).toContainEqual(bind);
  });

  it("pins the resolver's directories under a written `/`, and lists them", () => {
    const args = argvOf(WORKSPACE, rootRequested);
    expect(args.join(" ")).toContain("--bind /etc /etc");
    expect(finalBinds(args)).toContainEqual({ source: "/etc", dest: "/etc" });
  });

  it("refuses an option it does not know, which it cannot step over", () => {
    const walk = () => finalBinds(["--unknown", "--bind", "/a", "/a"]);
    expect(walk).toThrow(expect.objectContaining({ code: "ERR_SANDBOX_BWRAP_OPTION_UNKNOWN" }));
  });

  it("lists the binds still in sight, past options with arguments, up to `--`", () => {
    const args = [
      "--setenv",
      "X",
      "--bind",
      "--ro-bind",
      "/usr",
      "/usr",
      "--bind",
      "/ws",
      "/ws",
      "--ro-bind",
      "/ws/cfg",
      "/ws/cfg",
      "--symlink",
      "usr/bin",
      "/bin",
      "--",
      "--bind",
      "/a",
      "/a",
    ];
    expect(finalBinds(args)).toEqual([
      { source: "/usr", dest: "/usr" },
      { source: "/ws", dest: "/ws" },
      { source: "/ws/cfg", dest: "/ws/cfg" },
    ]);
  });

  it("leaves out a bind that a later mount covers, at its place or above it", () => {
    const args = [
      "--ro-bind",
      "/etc/ssl",
      "/etc/ssl",
      "--ro-bind",
      "/a/b",
      "/a/b",
      "--ro-bind",
      "/c",
      "/c",
      "--tmpfs",
      "/etc/ssl/private",
      "--tmpfs",
      "/a",
      "--bind",
      "/d",
      "/c",
    ];
    expect(finalBinds(args)).toEqual([
      { source: "/etc/ssl", dest: "/etc/ssl" },
      { source: "/d", dest: "/c" },
    ]);
  });
});
