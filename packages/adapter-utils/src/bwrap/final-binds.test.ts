import { describe, expect, it } from "vitest";
import { scopeArgs } from "../spawn-target/scope-args.js";
import { finalBinds, knownOption } from "./final-binds.js";
import type { HostLayout, HostPathKind } from "./host-layout.js";

const dir: HostPathKind = { kind: "directory" };
const layout: HostLayout = new Map<string, HostPathKind>(
  ["/tmp", "/run", "/proc/sys", "/sys", "/etc", "/usr", "/ws", "/ws/cfg"].map((place) => [place, dir]),
);

/** The options of a builder's argv, walked as finalBinds walks it. */
function optionsOf(args: readonly string[]): string[] {
  const arity: Record<string, number> = {
    "--bind": 2,
    "--ro-bind": 2,
    "--symlink": 2,
    "--setenv": 2,
    "--chmod": 2,
  };
  const options: string[] = [];
  for (let at = 0; at < args.length; ) {
    const option = args[at] as string;
    options.push(option);
    const zero = [
      "--die-with-parent",
      "--new-session",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-net",
    ];
    at += 1 + (arity[option] ?? (zero.includes(option) ? 0 : 1));
  }
  return options;
}

describe("finalBinds", () => {
  it.each([
    { filesystemScope: "workspace" as const, networkScope: null },
    { filesystemScope: null, networkScope: "deny" as const },
  ])("knows every option the scope builders emit (%o)", (parsed) => {
    const { args } = scopeArgs({
      parsed,
      layout,
      mounts: {
        requests: [
          { path: "/ws", access: "rw" },
          { path: "/ws/cfg", access: "ro" },
        ],
        aliases: [],
        masks: ["/tmp", "/run"],
        socketRoots: ["/dev/shm/paperclip-sandbox-sockets-0"],
      },
      runDir: "/tmp/run-1",
      proxyMount: null,
      runnerIsRoot: true,
      initMask: "/dev/shm/paperclip-sandbox-sockets-0/native-1",
    });
    expect(optionsOf(args).filter((option) => !knownOption(option))).toEqual([]);
    expect(finalBinds(args)).toContainEqual({ source: "/ws/cfg", dest: "/ws/cfg" });
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
