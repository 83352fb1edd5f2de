import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll, runNodeInSandbox } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * Runs in the sandbox: takes a file it may only read into the writable workspace, by a
 * hard link (a second name for the same inode, writable wherever the name is) and by a
 * rename, and prints each outcome. A write through either would change the host's file.
 */
const take = (file: string, into: string) => `
const fs = require("node:fs");
const [file, into] = ${JSON.stringify([file, into])};
const outcome = (run) => { try { run(); return "ok"; } catch (e) { return e.code; } };
console.log(JSON.stringify({
  link: outcome(() => fs.linkSync(file, into + "/linked")),
  rename: outcome(() => fs.renameSync(file, into + "/renamed")),
  // Opened without creating it: a write lands only where a link was made.
  write: outcome(() => fs.closeSync(fs.openSync(into + "/linked", "r+"))),
}));`;

async function runTake(file: string, ws: string, scope: object): Promise<Record<string, string>> {
  const result = await runNodeInSandbox(take(file, ws), { workspaceDir: ws, ...scope }, { timeoutSec: 30 });
  if (result.exitCode !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as Record<string, string>;
}

describe("hard links and renames out of a read-only path", () => {
  // Under /var/tmp, usually one filesystem with /etc: a link between them is refused by
  // the mounts, not merely because two filesystems cannot share an inode.
  const dir = () => tempDirForTest("pc-hard-link-", { base: "/var/tmp" });

  it("a read-only extra path's file cannot be linked or moved into the writable workspace", async () => {
    const root = await dir();
    const ws = path.join(root, "ws");
    const readOnly = path.join(root, "ro");
    await mkdir(ws);
    await mkdir(readOnly);
    const secret = path.join(readOnly, "config");
    await writeFile(secret, "host\n");
    const outcome = await runTake(secret, ws, {
      filesystemScope: "workspace",
      networkScope: "deny",
      extraPaths: [{ path: readOnly, access: "ro" }],
    });
    expect(outcome).toEqual({ link: "EXDEV", rename: "EXDEV", write: "ENOENT" });
    expect(await readFile(secret, "utf8")).toBe("host\n");
  }, 60_000);

  it("the network-only scope's read-only resolver file cannot be linked into the host tree", async () => {
    const ws = await dir();
    const hosts = await readFile("/etc/hosts", "utf8");
    // A root runner's /etc is read-only whole, another runner's files one by one: both refuse.
    const outcome = await runTake("/etc/hosts", ws, { networkScope: "deny" });
    expect(outcome).toEqual({ link: "EXDEV", rename: "EXDEV", write: "ENOENT" });
    expect(await readFile("/etc/hosts", "utf8")).toBe(hosts);
  }, 60_000);
});
