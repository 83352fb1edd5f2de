/**
 * A sweep and a sync out never lose the newest copy of a target hidden beside it: a file never
 * replaces a hidden directory, and of several hidden trees only the one that certainly left the
 * target last is put back.
 */

import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { releaseStaging } from "./held-staging.js";
import { makeStagingDir, promoteDirectory, writeHostFileAtomic } from "./host-files.js";
import { restoreWindow } from "./restore-window.js";
import {
  type LeftTarget,
  newTreePath,
  nowMicros,
  ownStagingOwner,
  stagingPrefix,
  treeClock,
} from "./staging-name.js";
import { sweepStaleStaging } from "./stale-staging.js";
import { newestTree } from "./tree-order.js";

/** Above any pid_max: a process that certainly does not run. */
const DEAD = 2147483646;

afterEach(() => {
  restoreWindow.afterClaim = undefined;
  restoreWindow.beforePlace = undefined;
});

function file(): Readable {
  return Readable.from([Buffer.from("a file\n")]);
}

/** A tree of `target` named as a dead worker moved it, left the target when `left` says. */
function deadTree(target: string, kind: "old" | "restore" | "released", left?: LeftTarget): string {
  return newTreePath(target, kind, left).replace(`-p${process.pid}-`, `-p${DEAD}-`);
}

/** The hidden directory holding "only copy\n", wherever it is under `host`. */
async function survivors(host: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir(host)) {
    const inside = await readdir(join(host, name)).catch(() => [] as string[]);
    if (
      inside.includes("mine.txt") &&
      (await readFile(join(host, name, "mine.txt"), "utf8")) === "only copy\n"
    )
      found.push(name);
  }
  return found;
}

async function hiddenDirectory(path: string): Promise<void> {
  await mkdir(path);
  await writeFile(join(path, "mine.txt"), "only copy\n");
}

describe("a single file synced out where a directory of the target is hidden", () => {
  it("is refused while a sweep puts the directory back, which is kept", async () => {
    const host = tempDirForTest("createos-hidden-trees-");
    const target = join(host, "target");
    await hiddenDirectory(deadTree(target, "old"));
    let refusal: unknown;
    restoreWindow.beforePlace = async () => {
      restoreWindow.beforePlace = undefined;
      await writeHostFileAtomic(target, file(), 0o644).catch((error: unknown) => {
        refusal = error;
      });
    };
    await sweepStaleStaging(target);
    expect(refusal).toMatchObject({
      code: "ERR_CREATEOS_SYNC_RESTORE_PENDING",
      details: { reason: "directory-pending" },
    });
    expect(await survivors(host)).not.toEqual([]);
  });

  it("is refused, keeping a dead sweeper's claimed directory, while another sync runs", async () => {
    const host = tempDirForTest("createos-hidden-trees-");
    const target = join(host, "target");
    await hiddenDirectory(deadTree(target, "restore"));
    // Another sync to the target runs (this test's parent process is alive).
    await mkdir(
      join(
        dirname(target),
        `${stagingPrefix(target, { ...ownStagingOwner(), pid: process.ppid })}0123456789ab`,
      ),
    );
    await expect(writeHostFileAtomic(target, file(), 0o644)).rejects.toMatchObject({
      code: "ERR_CREATEOS_SYNC_RESTORE_PENDING",
    });
    expect(await survivors(host)).not.toEqual([]);
  });

  it("never has the sweep remove a hidden directory beside it", async () => {
    const host = tempDirForTest("createos-hidden-trees-");
    const target = join(host, "target");
    await hiddenDirectory(deadTree(target, "released"));
    await writeFile(target, "a file\n");
    await sweepStaleStaging(target);
    expect(await survivors(host)).not.toEqual([]);
  });
});

describe("several hidden trees of a missing target", () => {
  it("has the newest put back, never the older one a promotion took from a claim", async () => {
    const lost: string[] = [];
    for (let round = 0; round < 20; round++) {
      const host = tempDirForTest("createos-hidden-trees-");
      const target = join(host, "target");
      await mkdir(target);
      await writeFile(join(target, "newest.txt"), "newest\n");
      const left = Date.now() * 1000 + round;
      const claim = deadTree(target, "restore", { from: left - 3000, until: left - 2000 });
      await mkdir(claim);
      await writeFile(join(claim, "older.txt"), "older\n");
      // A promotion takes the claim, keeping when it left the target...
      await rename(claim, deadTree(target, "old", { from: left - 3000, until: left - 2000 }));
      // ...moves the target aside, and is killed before it notes the rename's end.
      await rename(target, deadTree(target, "old", { from: left, until: undefined }));
      await sweepStaleStaging(target);
      if (!(await readdir(target)).includes("newest.txt")) lost.push(`round ${round}`);
    }
    expect(lost).toEqual([]);
  });

  it("puts none back and removes none when which is the newest cannot be told", async () => {
    const host = tempDirForTest("createos-hidden-trees-");
    const target = join(host, "target");
    const first = deadTree(target, "old", { from: 10, until: 30 });
    const second = deadTree(target, "released", { from: 20, until: 40 });
    for (const tree of [first, second]) await hiddenDirectory(tree);
    await sweepStaleStaging(target);
    expect((await readdir(host)).sort()).toEqual(
      [first, second].map((tree) => tree.slice(host.length + 1)).sort(),
    );
  });
});

describe("a hidden tree whose mover was killed before it noted until", () => {
  it("is put back nor removed while another may have left later, until the next sync out", async () => {
    const host = tempDirForTest("createos-hidden-trees-");
    const target = join(host, "target");
    const clock = treeClock();
    const killed = deadTree(target, "old", { clock, from: nowMicros(), until: undefined });
    const other = deadTree(target, "old", { clock, from: nowMicros(), until: nowMicros() });
    for (const tree of [killed, other]) await hiddenDirectory(tree);
    await sweepStaleStaging(target);
    expect((await readdir(host)).sort()).toEqual(
      [killed, other].map((tree) => tree.slice(host.length + 1)).sort(),
    );

    // The next sync out promotes a newer tree than both: its next sweep removes them.
    const staging = await makeStagingDir(target);
    await writeFile(join(staging, "synced.txt"), "synced\n");
    await promoteDirectory(staging, target);
    releaseStaging(staging);
    await sweepStaleStaging(target);
    expect(await readdir(host)).toEqual(["target"]);
    expect(await readdir(target)).toEqual(["synced.txt"]);
  });

  it("is put back when it left after every other had", async () => {
    const host = tempDirForTest("createos-hidden-trees-");
    const target = join(host, "target");
    const clock = treeClock();
    const other = deadTree(target, "old", { clock, from: nowMicros(), until: nowMicros() });
    await mkdir(other);
    await writeFile(join(other, "older.txt"), "older\n");
    await hiddenDirectory(deadTree(target, "old", { clock, from: nowMicros(), until: undefined }));
    await sweepStaleStaging(target);
    expect(await readdir(host)).toEqual(["target"]);
    expect(await readdir(target)).toEqual(["mine.txt"]);
  });
});

describe("a sweep putting a tree back while other workers promote and are killed", () => {
  it("defers once a tree it did not list appears, so the newest is never removed", async () => {
    const host = tempDirForTest("createos-hidden-trees-");
    const target = join(host, "target");
    await hiddenDirectory(
      deadTree(target, "old", { clock: treeClock(), from: nowMicros(), until: nowMicros() }),
    );
    restoreWindow.afterClaim = async () => {
      restoreWindow.afterClaim = undefined;
      // A worker that staged once the sweep had listed the entries, and looked for claims before
      // this one was made (there were none), promotes the target now; another worker moves it
      // aside for its own promotion and is killed. Neither's staging is left running.
      const staging = join(host, "w-staging");
      await mkdir(staging);
      await writeFile(join(staging, "newest.txt"), "newest\n");
      await rename(staging, target);
      await rename(
        target,
        deadTree(target, "old", { clock: treeClock(), from: nowMicros(), until: undefined }),
      );
    };
    await sweepStaleStaging(target);
    await sweepStaleStaging(target);
    expect(await readdir(target)).toEqual(["newest.txt"]);
  });
});

describe("newestTree", () => {
  const at = (from: number, until?: number) => ({ left: { from, until } });

  it("takes the tree that left the target after every other had", () => {
    const newest = at(50, 60);
    expect(newestTree([at(10, 20), newest, at(30, 40)])).toBe(newest);
    expect(newestTree([at(10), at(20)])).toBe(undefined);
  });

  it("takes none when the times were read on two clocks", () => {
    const on = (clock: string | undefined, from: number, until: number) => ({ left: { clock, from, until } });
    expect(newestTree([on("0123456789abcdef.1", 10, 20), on("fedcba9876543210.1", 50, 60)])).toBe(undefined);
    expect(newestTree([on(undefined, 10, 20), on("0123456789abcdef.1", 50, 60)])).toBe(undefined);
    const newest = on("0123456789abcdef.1", 50, 60);
    expect(newestTree([on("0123456789abcdef.1", 10, 20), newest])).toBe(newest);
  });

  it("takes none when two left at once or a leaving is not known", () => {
    expect(newestTree([at(10, 25), at(20, 30)])).toBe(undefined);
    expect(newestTree([at(10, 20), { left: undefined }])).toBe(undefined);
    const only = { left: undefined };
    expect(newestTree([only])).toBe(only);
  });
});
