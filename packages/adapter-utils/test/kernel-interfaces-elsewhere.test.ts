import { mkdir } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll, probeScopesAfterHostSetup } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * A chroot's `/proc` and `/sys` (a build root of debootstrap, mock, schroot) are the kernel's
 * interfaces as much as the host's own: a root runner's program that may write one writes
 * `core_pattern`, and a pipe pattern runs a program of its choice as root, outside every
 * namespace, at the next crash. The test mounts them itself, in a private mount namespace, in
 * the workspace, in the host tree (the network-only scope shows it writable), where the
 * workspace scope shows it writable too. Opened for writing and closed unwritten; read back.
 */
function probe(chroot: string): string {
  return `
const fs = require("node:fs");
const open = (file, flags) => { try { fs.closeSync(fs.openSync(file, flags)); return "ok"; } catch (e) { return e.code; } };
const at = (name) => ${JSON.stringify(chroot)} + name;
console.log(JSON.stringify({
  corePattern: open(at("/proc/sys/kernel/core_pattern"), "a"),
  readable: fs.readFileSync(at("/proc/sys/kernel/core_pattern"), "utf8").length > 0,
  sysfs: open(at("/sys/kernel/mm/ksm/run"), "a"),
}));`;
}

describe("kernel interfaces mounted elsewhere in the host tree", () => {
  it("are read-only in every scope that shows them writable, for a root program", async () => {
    // In the host tree (not /tmp, which the network-only scope masks), the workspace of every scope.
    const ws = tempDirForTest("pc-chroot-ws-", { base: "/var/tmp" });
    const chroot = path.join(ws, "chroot");
    await mkdir(chroot);
    await mkdir(path.join(chroot, "proc"));
    await mkdir(path.join(chroot, "sys"));
    const out = await probeScopesAfterHostSetup(
      `mount -t proc proc ${chroot}/proc && mount -t sysfs sysfs ${chroot}/sys`,
      {
        command: process.execPath,
        args: ["-e", probe(chroot)],
        workspace: ws,
        scopes: {
          networkOnlyDeny: { networkScope: "deny" },
          networkOnlyAllowlist: { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:1"] },
          workspaceHoldingTheChroot: { filesystemScope: "workspace", networkScope: "deny" },
        },
      },
    );
    const readOnly = JSON.stringify({ corePattern: "EROFS", readable: true, sysfs: "EROFS" });
    expect(out).toEqual({
      networkOnlyDeny: `${readOnly}\n`,
      networkOnlyAllowlist: `${readOnly}\n`,
      workspaceHoldingTheChroot: `${readOnly}\n`,
    });
  }, 60_000);
});
