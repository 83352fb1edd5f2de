/**
 * A promotion whose renames fail part way (EIO, ENOSPC) leaves every tree it touched where a
 * later sweep finds it in its order: nothing it could not take is put over what it promoted, and
 * a tree it let go of never passes for newer than the target it moved aside.
 */
import * as fs from "node:fs/promises";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it, vi } from "vitest";
import { releaseStaging } from "./held-staging.js";
import { makeStagingDir, promoteDirectory } from "./host-files.js";
import { newTreePath, nowMicros, ownStagingOwner, stagingPrefix, treeClock } from "./staging-name.js";
import { sweepStaleStaging } from "./stale-staging.js";

vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  return { ...actual, rename: vi.fn(actual.rename) };
});

const actual = await vi.importActual<typeof import("node:fs/promises")>("node:fs/promises");

/** Above any pid_max: a process that certainly does not run. */
const DEAD = 2147483646;

afterEach(() => {
  vi.mocked(fs.rename).mockImplementation(actual.rename);
});

/** Renames fail with EIO where `fails(from, to)` says; every other one is done. */
function failRenames(fails: (from: string, to: string) => boolean): void {
  vi.mocked(fs.rename).mockImplementation(async (from, to) => {
    if (fails(String(from), String(to)))
      throw Object.assign(new Error("EIO: i/o error, rename"), { code: "EIO" });
    return actual.rename(from, to);
  });
}

/** A dead sweeper's claim on a tree of `target`, holding `file`, that left it long ago. */
async function deadClaim(target: string, file: string): Promise<string> {
  const left = { clock: treeClock(), from: nowMicros(), until: nowMicros() };
  const claim = newTreePath(target, "restore", left).replace(`-p${process.pid}-`, `-p${DEAD}-`);
  await mkdir(claim);
  await writeFile(join(claim, file), `${file}\n`);
  return claim;
}

describe("a promotion that cannot take a pending claim", () => {
  it("is refused, and the claim is left for a later sweep", async () => {
    const host = tempDirForTest("createos-pending-restores-");
    const target = join(host, "target");
    const claim = await deadClaim(target, "older.txt");
    // Another sync to the target runs (this test's parent process is alive): no sweep puts it back.
    await mkdir(
      join(
        dirname(target),
        `${stagingPrefix(target, { ...ownStagingOwner(), pid: process.ppid })}0123456789ab`,
      ),
    );
    const staging = await makeStagingDir(target);
    failRenames((from) => from === claim);

    await expect(promoteDirectory(staging, target)).rejects.toMatchObject({
      code: "ERR_CREATEOS_SYNC_RESTORE_PENDING",
      details: { reason: "claim-not-taken" },
    });
    releaseStaging(staging);
    expect(await readdir(host)).not.toContain("target");
    expect(await readdir(claim)).toEqual(["older.txt"]);
  });
});

describe("a promotion that took a claim, moved the target aside, then could neither swap nor undo", () => {
  it("leaves the target's tree the newest: the next sweep puts it back, not the claim", async () => {
    // The ctimes of the two trees tie as often as not: rounds, so an order read from them fails.
    const lost: string[] = [];
    for (let round = 0; round < 20; round++) {
      const host = tempDirForTest("createos-pending-restores-");
      const target = join(host, "target");
      await mkdir(target);
      await writeFile(join(target, "newest.txt"), "newest\n");
      const staging = await makeStagingDir(target);
      await deadClaim(target, "older.txt");
      failRenames((_from, to) => to === target);

      await expect(promoteDirectory(staging, target)).rejects.toMatchObject({ code: "EIO" });
      releaseStaging(staging);
      vi.mocked(fs.rename).mockImplementation(actual.rename);
      await sweepStaleStaging(target);
      if ((await readdir(target).catch(() => [])).join() !== "newest.txt") lost.push(`round ${round}`);
      expect(await readdir(host)).toEqual(["target"]);
    }
    expect(lost).toEqual([]);
  });
});

describe("a tree moved aside after the wall clock stepped back", () => {
  it("is never taken for older than a dead worker's tree named while the clock was ahead", async () => {
    const host = tempDirForTest("createos-pending-restores-");
    const target = join(host, "target");
    await mkdir(target);
    await writeFile(join(target, "newest.txt"), "newest\n");
    const staging = await makeStagingDir(target);
    // Moved aside by a worker since killed, while the wall clock ran an hour ahead.
    const ahead = (Date.now() + 3_600_000) * 1000;
    const older = newTreePath(target, "old", { from: ahead, until: ahead + 1000 }).replace(
      `-p${process.pid}-`,
      `-p${DEAD}-`,
    );
    await mkdir(older);
    await writeFile(join(older, "older.txt"), "older\n");
    failRenames((_from, to) => to === target);

    await expect(promoteDirectory(staging, target)).rejects.toMatchObject({ code: "EIO" });
    releaseStaging(staging);
    vi.mocked(fs.rename).mockImplementation(actual.rename);
    await sweepStaleStaging(target);

    const kept = await Promise.all(
      (await readdir(host)).map((name) => readdir(join(host, name)).catch(() => [] as string[])),
    );
    // Where this host's boot can be told, the move aside is timed on the monotonic clock and
    // never compared with the wall clock's times: both trees are kept. Where it cannot, times are
    // the wall clock's and compared as they are, the documented limit (docs/plugin-createos/
    // host-limits.md): the tree named while the clock was ahead passes for the newest.
    expect(kept.flat().sort()).toEqual(
      treeClock() === undefined ? ["older.txt"] : ["newest.txt", "older.txt"],
    );
  });
});
