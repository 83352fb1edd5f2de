import { shellQuote } from "@paperclipai/internal";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { inPrivateMountNamespace, packageDir } from "./sandbox-support.js";

/**
 * Mount points in a tree the cleanup removes, made in a mount namespace of the test's
 * own (the host's mount table is never touched): the walk runs from the sources (tsx) in
 * a process inside it, since a mount point is only busy in its own namespace.
 */
const SCRIPT = String.raw`
const { execFileSync } = await import("node:child_process");
const { existsSync, mkdirSync, readdirSync, writeFileSync } = await import("node:fs");
const path = await import("node:path");
const src = process.env.SRC;
const { MAX_OPEN_DIRECTORIES, MAX_UNMOVABLE_DIRECTORIES, removeTreeNoFollow } = await import(src + "/temp-dir/remove-tree-no-follow.ts");
const { removeProxyTempDir } = await import(src + "/temp-dir/remove-proxy-temp-dir.ts");
const { readOwnerRecord } = await import(src + "/temp-dir/owner-record.ts");
const { createNetworkProxyTempDir } = await import(src + "/temp-dir/create-network-proxy-temp-dir.ts");
const { createPrivateSocketDir } = await import(src + "/temp-dir/create-private-socket-dir.ts");
const base = process.env.BASE;
const mountTmpfs = (dir) => execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir]);
const detach = (dir) => execFileSync("umount", ["-l", dir]);
const chain = (dir) => path.join(dir, ...Array.from({ length: MAX_OPEN_DIRECTORIES }, () => "c"));
const outcome = (promise) => promise.then(() => "removed", (error) => error.code ?? String(error));
const out = {};

// A mount point met while MAX_OPEN_DIRECTORIES directories are open: rename to the top says EBUSY.
{
  const tree = path.join(base, "ebusy");
  const mountPoint = path.join(chain(tree), "m");
  mkdirSync(mountPoint, { recursive: true });
  mountTmpfs(mountPoint);
  writeFileSync(path.join(mountPoint, "file"), "x");
  // Walked in place, it is detached once listed (a mount namespace going away), so it empties.
  const afterList = (dir) => { if (dir === mountPoint) detach(mountPoint); };
  out.ebusy = await outcome(removeTreeNoFollow(tree, { afterList }));
  out.ebusyLeft = existsSync(tree);
}

// A tree on another filesystem than the top: rename to the top says EXDEV.
{
  const tree = path.join(base, "exdev");
  const mountPoint = path.join(tree, "x");
  mkdirSync(mountPoint, { recursive: true });
  mountTmpfs(mountPoint);
  mkdirSync(path.join(chain(mountPoint), "d"), { recursive: true });
  writeFileSync(path.join(chain(mountPoint), "d", "file"), "x");
  const afterList = (dir) => { if (dir === mountPoint) detach(mountPoint); };
  out.exdev = await outcome(removeTreeNoFollow(tree, { afterList }));
  out.exdevLeft = existsSync(tree);
}

// A subtree on another filesystem deeper than both caps: every level says EXDEV. The walk
// stops at MAX_UNMOVABLE_DIRECTORIES past the cap and keeps the owner record.
{
  const tree = path.join(base, "exdev-deep");
  const mountPoint = path.join(tree, "x");
  mkdirSync(mountPoint, { recursive: true });
  mountTmpfs(mountPoint);
  const levels = MAX_OPEN_DIRECTORIES + MAX_UNMOVABLE_DIRECTORIES + 16;
  mkdirSync(path.join(mountPoint, ...Array.from({ length: levels }, () => "c")), { recursive: true });
  writeFileSync(path.join(tree, "owner.json"), "{}");
  let deepest = 0;
  const afterList = (dir) => { deepest = Math.max(deepest, path.relative(tree, dir).split("/").length); };
  out.exdevDeep = await outcome(removeTreeNoFollow(tree, { afterList }, { removeLast: "owner.json" }));
  out.exdevDeepOpenAtMost = deepest <= MAX_OPEN_DIRECTORIES + MAX_UNMOVABLE_DIRECTORIES;
  out.exdevDeepRecord = existsSync(path.join(tree, "owner.json"));
  execFileSync("umount", [mountPoint]);
  out.exdevDeepAgain = await outcome(removeTreeNoFollow(tree, {}, { removeLast: "owner.json" }));
}

// A wide directory on another filesystem past the cap: what the second cap leaves goes in later rounds.
{
  const tree = path.join(base, "exdev-wide");
  const mountPoint = path.join(tree, "x");
  mkdirSync(mountPoint, { recursive: true });
  mountTmpfs(mountPoint);
  const wide = path.join(mountPoint, ...Array.from({ length: MAX_OPEN_DIRECTORIES - 2 }, () => "c"));
  for (let i = 0; i < 2 * MAX_UNMOVABLE_DIRECTORIES + 20; i += 1) {
    mkdirSync(path.join(wide, "s" + i), { recursive: true });
    writeFileSync(path.join(wide, "s" + i, "file"), "x");
  }
  // The mount point itself stays busy (EBUSY), but everything in it is gone.
  out.exdevWide = await outcome(removeTreeNoFollow(tree));
  out.exdevWideInside = readdirSync(mountPoint);
  execFileSync("umount", [mountPoint]);
  out.exdevWideAgain = await outcome(removeTreeNoFollow(tree));
}

// A mount point that stays busy in a run directory: the cleanup fails, the owner record stays.
for (const [name, dir] of [
  ["registry", await createNetworkProxyTempDir({ candidates: [base] })],
  ["inside", createPrivateSocketDir()],
]) {
  const busy = path.join(dir, "0", "busy");
  mkdirSync(busy, { recursive: true });
  mountTmpfs(busy);
  out[name] = { removed: await removeProxyTempDir(dir), left: existsSync(dir), record: (await readOwnerRecord(dir)) !== null };
  execFileSync("umount", [busy]);
  out[name + "Again"] = { removed: await removeProxyTempDir(dir), left: existsSync(dir), record: (await readOwnerRecord(dir)) !== null };
}
console.log(JSON.stringify(out));
`;

describe("the cleanup and mount points in the tree", () => {
  it("walks in place what cannot move to the top (EBUSY, EXDEV) within a second cap, and keeps the owner record of a directory that stays busy", async () => {
    const base = tempDirForTest("pc-busy-mounts-");
    const result = await inPrivateMountNamespace(
      `cd ${shellQuote(packageDir)} && exec ${shellQuote(process.execPath)} --import tsx --input-type=module -e "$SCRIPT"`,
      { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR, SCRIPT, SRC: `${packageDir}/src`, BASE: base },
    );
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({
      ebusy: "removed",
      ebusyLeft: false,
      exdev: "removed",
      exdevLeft: false,
      // The old walk opened every level (no cap) and failed on the busy mount with a bare EBUSY.
      exdevDeep: "ERR_SANDBOX_CLEANUP_UNFINISHED",
      exdevDeepOpenAtMost: true,
      exdevDeepRecord: true,
      exdevDeepAgain: "removed",
      exdevWide: "EBUSY",
      exdevWideInside: [],
      exdevWideAgain: "removed",
      registry: { removed: false, left: true, record: true },
      registryAgain: { removed: true, left: false, record: false },
      inside: { removed: false, left: true, record: true },
      insideAgain: { removed: true, left: false, record: false },
    });
  }, 60_000);
});
