import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll } from "./sandbox-support.js";
import { runInScopeMatrix, scopeMatrixWorkspace } from "./scope-matrix.js";

afterEach(cleanupAll);

/**
 * The program follows the `/proc` links of every other process it sees (bwrap's pid 1,
 * the bridge, a child of its own): `root`, `cwd`, `exe` and each `fd`. A link that opens
 * must lead to what the program reaches through its own root anyway, the same file by
 * device and inode at the path the link names; it prints every one that does not.
 */
const PROGRAM = `
const fs = require("node:fs");
const { spawn } = require("node:child_process");
const child = spawn("sleep", ["30"], { stdio: "ignore" });
const foreign = [];
let followed = 0;
const same = (a, b) => a.dev === b.dev && a.ino === b.ino;
for (const pid of fs.readdirSync("/proc").filter((name) => /^\\d+$/.test(name))) {
  if (Number(pid) === process.pid) continue;
  let fds = [];
  try { fds = fs.readdirSync("/proc/" + pid + "/fd").map((fd) => "fd/" + fd); } catch {}
  for (const name of ["root", "cwd", "exe", ...fds]) {
    const link = "/proc/" + pid + "/" + name;
    let through, target;
    try { through = fs.statSync(link); target = fs.readlinkSync(link); } catch { continue; }
    followed += 1;
    // Pipes, sockets and anonymous files have no path: nothing of a file tree.
    if (!target.startsWith("/")) continue;
    let direct = null;
    try { direct = fs.statSync(target); } catch {}
    if (!direct || !same(through, direct)) foreign.push(link + " -> " + target);
  }
}
child.kill();
console.log(JSON.stringify({ foreign, followed: followed > 0 }));`;

describe("the /proc links of every process a program sees", () => {
  it.each(["root", "nobody"] as const)(
    "lead a program run as %s nowhere its own root does not, in every scope",
    async (runAs) => {
      const ws = await scopeMatrixWorkspace(runAs, "pc-proc-links-");
      const result = await runInScopeMatrix(runAs, ws, PROGRAM);
      expect(result.stderr).toBe("");
      const outcome = { foreign: [], followed: true };
      expect(JSON.parse(result.stdout)).toEqual({
        workspace: outcome,
        workspaceDeny: outcome,
        networkOnlyDeny: outcome,
        networkOnlyAllowlist: outcome,
      });
    },
    120_000,
  );
});
