import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll, probeScopesAfterHostSetup, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * Kernel interfaces a host mounts beside /proc and /sys, each a way out for a program that is
 * uid 0 (a root runner's) even without capabilities, since only file modes guard them:
 * binfmt_misc's `register` makes the kernel run an interpreter of the program's choice for
 * every matching file any host process executes; tracefs, debugfs and bpf reach the whole
 * kernel. The test mounts them itself, in a private mount namespace, so it does not depend
 * on what the host has mounted; one the host has mounted already is kept (a second tracefs
 * mount at the same place fails with EBUSY).
 */
const MOUNTS = [
  ["binfmt_misc", "/proc/sys/fs/binfmt_misc"],
  ["tracefs", "/sys/kernel/tracing"],
  ["debugfs", "/sys/kernel/debug"],
  ["bpf", "/sys/fs/bpf"],
]
  .map(([kind, place]) => `{ mountpoint -q ${place} || mount -t ${kind} ${kind} ${place}; }`)
  .join(" && ");

/**
 * Runs in the sandbox: the kernel interfaces it can see (the topmost mount at each place,
 * as the program's path lookups find them) and the ones it could write, then the outcome of
 * opening binfmt_misc's `register` and tracefs's `tracing_on` for writing (closed unwritten).
 */
const PROBE = `
const fs = require("node:fs");
const KINDS = new Set(["binfmt_misc", "tracefs", "debugfs", "bpf", "securityfs", "sysfs", "cgroup", "cgroup2"]);
const top = new Map();
for (const line of fs.readFileSync("/proc/self/mountinfo", "utf8").trim().split("\\n")) {
  const [left, right] = line.split(" - ");
  const fields = left.split(" ");
  top.set(fields[4], { kind: right.split(" ")[0], options: fields[5].split(",") });
}
const seen = [...new Set([...top.values()].filter((m) => KINDS.has(m.kind)).map((m) => m.kind))].sort();
const writable = [...top].filter(([, m]) => KINDS.has(m.kind) && !m.options.includes("ro")).map(([at]) => at);
const open = (file, flags) => { try { fs.closeSync(fs.openSync(file, flags)); return "ok"; } catch (e) { return e.code; } };
console.log(JSON.stringify({
  seen, writable,
  register: open("/proc/sys/fs/binfmt_misc/register", "w"),
  tracingOn: open("/sys/kernel/tracing/tracing_on", "a"),
}));`;

const SCOPES = {
  workspace: { filesystemScope: "workspace", networkScope: "deny" },
  networkOnlyDeny: { networkScope: "deny" },
  networkOnlyAllowlist: { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:1"] },
} as const;

describe("kernel interfaces mounted on the host", () => {
  it("are read-only in every scope: no binfmt_misc handler, no tracing, for a root program", async () => {
    const ws = await scratchDir();
    const out = await probeScopesAfterHostSetup(MOUNTS, {
      command: process.execPath,
      args: ["-e", PROBE],
      workspace: ws,
      scopes: SCOPES,
    });
    const outcomes = Object.fromEntries(
      Object.entries(out).map(([name, stdout]) => [name, JSON.parse(stdout) as unknown]),
    ) as Record<keyof typeof SCOPES, unknown>;
    // The workspace scope shows none of /sys; the host's /proc/sys (binfmt_misc inside) read-only.
    expect(outcomes.workspace).toEqual({
      seen: ["binfmt_misc"],
      writable: [],
      register: "EROFS",
      tracingOn: "ENOENT",
    });
    // The network-only scope shows the host tree, /sys and every mount below it, read-only.
    const hostTree = {
      seen: expect.arrayContaining(["binfmt_misc", "bpf", "debugfs", "sysfs", "tracefs"]),
      writable: [],
      register: "EROFS",
      tracingOn: "EROFS",
    };
    expect(outcomes.networkOnlyDeny).toEqual(hostTree);
    expect(outcomes.networkOnlyAllowlist).toEqual(hostTree);
  }, 90_000);
});
