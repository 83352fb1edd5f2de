import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { makeStagingDir } from "./host-files.js";
import { ownStagingOwner, type StagingOwner, stagingPrefix } from "./staging-name.js";
import { releaseStaging } from "./stale-staging.js";

/** Above any pid_max: a process that certainly does not run. */
const DEAD = 2147483646;

function owned(target: string, owner: Partial<StagingOwner>, rest = "0123456789ab"): string {
  return `${stagingPrefix(target, { ...ownStagingOwner(), ...owner })}${rest}`;
}

/** The next sync out to `target`: it sweeps, stages, then fails before its promotion. */
async function failedSyncOut(target: string): Promise<void> {
  const staging = await makeStagingDir(target);
  releaseStaging(staging);
  await rm(staging, { recursive: true, force: true });
}

describe("sweepStaleStaging", () => {
  it("knows this process's pid namespace and boot", () => {
    expect(ownStagingOwner()).toMatchObject({
      ns: expect.stringMatching(/^\d+$/),
      boot: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
  });

  it("puts back the tree a worker killed between its two renames left only in its .old", async () => {
    const host = tempDirForTest("createos-sweep-");
    const target = join(host, "target");
    // What the kill leaves: the user's tree moved aside, the new tree staged, no target.
    const old = join(host, `${owned(target, { pid: DEAD })}.old`);
    await mkdir(old);
    await writeFile(join(old, "mine.txt"), "only copy\n");
    await mkdir(join(host, owned(target, { pid: DEAD })));
    await writeFile(join(host, owned(target, { pid: DEAD }), "new.txt"), "new\n");

    await failedSyncOut(target);
    expect(await readdir(host)).toEqual(["target"]);
    expect(await readdir(target)).toEqual(["mine.txt"]);
  });

  it("sweeps another boot's entries and this namespace's dead ones, and leaves another namespace's", async () => {
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
      // Names from before the owner was written.
      ".target.paperclip-sync-Ab12Cd",
      `.target.paperclip-sync-${DEAD}-Ab12Cd`,
    ];
    const swept = [
      // Another boot's: its process is gone, whatever its namespace or pid.
      owned(target, { boot: otherBoot, pid: process.pid }),
      owned(target, { boot: otherBoot, ns: otherNs, pid: process.ppid }),
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
