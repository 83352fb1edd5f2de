import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it, onTestFinished } from "vitest";
import { releaseStaging } from "./held-staging.js";
import { makeStagingDir, promoteDirectory } from "./host-files.js";
import { restoreWindow } from "./restore-window.js";
import { ownStagingOwner, type StagingOwner, stagingPrefix } from "./staging-name.js";
import { isOwnerGone, sweepStaleStaging } from "./stale-staging.js";

/** Above any pid_max: a process that certainly does not run. */
const DEAD = 2147483646;

function owned(target: string, owner: Partial<StagingOwner>, rest = "0123456789ab"): string {
  return `${stagingPrefix(target, { ...ownStagingOwner(), ...owner })}${rest}`;
}

/** What a worker killed between its two renames leaves: the user's tree moved aside as its `.old`. */
async function deadWorkersOld(target: string, content: string): Promise<string> {
  const old = join(dirname(target), `${owned(target, { pid: DEAD })}.old`);
  await mkdir(old);
  await writeFile(join(old, "mine.txt"), content);
  return old;
}

/** The next sync out to `target`: it sweeps, stages, then fails before its promotion. */
async function failedSyncOut(target: string): Promise<void> {
  const staging = await makeStagingDir(target);
  releaseStaging(staging);
  await rm(staging, { recursive: true, force: true });
}

describe("sweepStaleStaging", () => {
  it("puts back the tree a worker killed between its two renames left only in its .old", async () => {
    const host = tempDirForTest("createos-sweep-");
    const target = join(host, "target");
    // What the kill leaves: the user's tree moved aside, the new tree staged, no target.
    await deadWorkersOld(target, "only copy\n");
    await mkdir(join(host, owned(target, { pid: DEAD })));
    await writeFile(join(host, owned(target, { pid: DEAD }), "new.txt"), "new\n");

    await failedSyncOut(target);
    expect(await readdir(host)).toEqual(["target"]);
    expect(await readdir(target)).toEqual(["mine.txt"]);
  });

  it("sweeps this namespace's dead entries, and leaves another namespace's and another boot's made since this boot", async () => {
    const host = tempDirForTest("createos-sweep-");
    const target = join(host, "target");
    await mkdir(target);
    const self = ownStagingOwner();
    const otherBoot = `${self.boot[0] === "0" ? "1" : "0"}${self.boot.slice(1)}`;
    const otherNs = String(Number(self.ns) + 1);
    const kept = [
      // Another pid namespace's (a container sharing the target): its pids mean nothing here.
      owned(target, { ns: otherNs, pid: DEAD }),
      `${owned(target, { ns: otherNs, pid: DEAD })}.old`,
      // A running process of this namespace.
      owned(target, { pid: process.ppid }),
      // Another boot's made since this one began: another kernel sharing the target may run it.
      owned(target, { boot: otherBoot, pid: process.pid }),
      owned(target, { boot: otherBoot, ns: otherNs, pid: process.ppid }),
      // Names from before the owner was written, made since this boot.
      ".target.paperclip-sync-Ab12Cd",
      `.target.paperclip-sync-${DEAD}-Ab12Cd`,
    ];
    const swept = [
      // A dead process of this namespace, and one that had this pid (a restarted container).
      owned(target, { pid: DEAD }),
      `${owned(target, { pid: process.pid })}.old`,
    ];
    for (const name of [...kept, ...swept]) await mkdir(join(host, name));

    const live = await makeStagingDir(target);
    // A second sync to the same target while the first one stages: this process's live staging is kept.
    await failedSyncOut(target);
    releaseStaging(live);
    expect((await readdir(host)).sort()).toEqual([...kept, "target", live.slice(host.length + 1)].sort());
  });
});

/** Runs `promote` once, in the window between the sweep's check that the target is missing and its move. */
function promoteInWindow(promote: () => Promise<void>): void {
  restoreWindow.beforePlace = async () => {
    restoreWindow.beforePlace = undefined;
    await promote();
  };
  onTestFinished(() => {
    restoreWindow.beforePlace = undefined;
  });
}

describe("putting a dead worker's tree back as its missing target", () => {
  it("puts back a tree whose .old name is as long as the file system allows", async () => {
    const host = tempDirForTest("createos-sweep-");
    // Its claim is named for a hash of the target's name: it fits wherever the `.old` did.
    const oldName = (base: string) => `${owned(join(host, base), { pid: DEAD })}.old`;
    const base = "t".repeat(256 - oldName("t").length);
    const target = join(host, base);
    expect(oldName(base)).toHaveLength(255);
    await deadWorkersOld(target, "only copy\n");

    await sweepStaleStaging(target);
    expect(await readdir(host)).toEqual([base]);
    expect(await readFile(join(target, "mine.txt"), "utf8")).toBe("only copy\n");
  });

  it("never replaces an empty directory another process promoted meanwhile", async () => {
    const host = tempDirForTest("createos-restore-");
    const target = join(host, "target");
    await deadWorkersOld(target, "older tree\n");
    // Another live worker (this test's parent) promotes an empty tree to the same target.
    promoteInWindow(async () => {
      const staging = join(host, owned(target, { pid: process.ppid }));
      await mkdir(staging);
      await promoteDirectory(staging, target);
    });

    await failedSyncOut(target);
    expect(await readdir(target)).toEqual([]);
    // The older tree was superseded by the promotion: removed, not left beside it.
    expect(await readdir(host)).toEqual(["target"]);
  });

  it("never replaces an empty directory promoted meanwhile to a target of a name as long as can be", async () => {
    const host = tempDirForTest("createos-restore-");
    // The promotion's staging name is as long as `.old` beside it cannot be: what it takes the
    // claim as is named for a hash of the target's name, as the claim is.
    const stagingName = (base: string) => owned(join(host, base), { pid: process.ppid }, "0".repeat(36));
    const base = "t".repeat(252 - stagingName("t").length + 1);
    const target = join(host, base);
    expect(stagingName(base)).toHaveLength(252);
    await deadWorkersOld(target, "older tree\n");
    promoteInWindow(async () => {
      await mkdir(join(host, stagingName(base)));
      await promoteDirectory(join(host, stagingName(base)), target);
    });

    await failedSyncOut(target);
    expect(await readdir(target)).toEqual([]);
    expect(await readdir(host)).toEqual([base]);
  });

  it("never replaces a file another process promoted meanwhile", async () => {
    const host = tempDirForTest("createos-restore-");
    const target = join(host, "target");
    // A directory synced out over what was a file: the replaced file is the `.old`.
    await writeFile(join(host, `${owned(target, { pid: DEAD })}.old`), "older file\n");
    promoteInWindow(async () => {
      const temp = join(host, owned(target, { pid: process.ppid }));
      await writeFile(temp, "promoted\n");
      await rename(temp, target);
    });

    await failedSyncOut(target);
    expect(await readFile(target, "utf8")).toBe("promoted\n");
    expect(await readdir(host)).toEqual(["target"]);
  });

  it("waits while another sync to the target may run: the tree is kept, not put back yet", async () => {
    const host = tempDirForTest("createos-restore-");
    const target = join(host, "target");
    const old = await deadWorkersOld(target, "older tree\n");
    const running = owned(target, { pid: process.ppid });
    await mkdir(join(host, running));

    await failedSyncOut(target);
    // Left as it was, unclaimed: any later sweep's, and its ctime still when it was moved aside.
    expect((await readdir(host)).sort()).toEqual([running, basename(old)].sort());
    expect(await readdir(old)).toEqual(["mine.txt"]);

    // Once that sync is gone, the next sync out puts the tree back.
    await rm(join(host, running), { recursive: true });
    await failedSyncOut(target);
    expect(await readdir(host)).toEqual(["target"]);
    expect(await readdir(target)).toEqual(["mine.txt"]);
  });
});

describe("isOwnerGone", () => {
  const self: StagingOwner = { ns: "4026531836", boot: "0123456789abcdef", pid: 100 };
  const booted = 1_000_000;
  const facts = (owner: Partial<StagingOwner>, more: { ctimeMs?: number; held?: boolean } = {}) => ({
    owner: { ...self, ...owner },
    ctimeMs: more.ctimeMs ?? booted + 5_000,
    held: more.held ?? false,
    self,
    bootTimeMs: booted,
  });
  const running = (pid: number) => pid === 7;

  it("takes another boot's entry as gone only when it predates this boot", () => {
    const otherBoot = { boot: "fedcba9876543210", pid: 7 };
    expect(isOwnerGone(facts(otherBoot, { ctimeMs: booted - 1 }), running)).toBe(true);
    expect(isOwnerGone(facts(otherBoot, { ctimeMs: booted + 1 }), running)).toBe(false);
    expect(isOwnerGone({ ...facts(otherBoot, { ctimeMs: 0 }), bootTimeMs: undefined }, running)).toBe(false);
  });

  it("never judges another pid namespace's pid, judges this one's by whether it runs", () => {
    expect(isOwnerGone(facts({ ns: "1", pid: 8 }), running)).toBe(false);
    expect(isOwnerGone(facts({ pid: 8 }), running)).toBe(true);
    expect(isOwnerGone(facts({ pid: 7 }), running)).toBe(false);
  });

  it("takes an entry named before the owner was written as gone only when it predates this boot", () => {
    const unowned = { ...facts({}), owner: undefined };
    expect(isOwnerGone({ ...unowned, ctimeMs: booted - 1 }, running)).toBe(true);
    expect(isOwnerGone({ ...unowned, ctimeMs: booted + 1 }, running)).toBe(false);
    expect(isOwnerGone({ ...unowned, ctimeMs: 0, bootTimeMs: undefined }, running)).toBe(false);
  });

  it("takes this process's own pid as a predecessor's unless this process holds the entry", () => {
    expect(isOwnerGone(facts({ pid: 100 }), running)).toBe(true);
    expect(isOwnerGone(facts({ pid: 100 }, { held: true }), running)).toBe(false);
  });
});
