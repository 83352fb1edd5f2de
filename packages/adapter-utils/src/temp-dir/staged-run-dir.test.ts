import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OWNER_RECORD_NAME } from "./owner-record-location.js";
import { claimStagedRunDir, stagedRunDirPath, stageRunDir } from "./staged-run-dir.js";

const scratch: string[] = [];

/**
 * Where the tests stage: a tmpfs (where a directory's size counts its entries, so a claim
 * checks sizes) and the temp directory (which may be a disk, where a claim lists).
 */
const BASES = [...new Set(["/dev/shm", process.env.TMPDIR ?? os.tmpdir()])].filter((base) =>
  existsSync(base),
);
let stagingBase = BASES[0]!;

/** A `create` that makes a run directory (0700, with a record) the way `makeRunDirOnCandidates` does. */
function scratchCreate(): string {
  const base = mkdtempSync(path.join(stagingBase, "staged-test-"));
  scratch.push(base);
  const dir = mkdtempSync(path.join(base, "run-"));
  writeFileSync(path.join(dir, OWNER_RECORD_NAME), `${JSON.stringify({ pid: process.pid })}\n`, {
    mode: 0o600,
  });
  return dir;
}

afterEach(() => {
  claimStagedRunDir();
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function stage(maskCount = 3): string {
  stageRunDir(scratchCreate, maskCount);
  const dir = stagedRunDirPath();
  if (!dir) throw new Error("nothing staged");
  return dir;
}

describe.each(BASES)("staged run directory in %s", (base) => {
  beforeEach(() => {
    stagingBase = base;
  });

  it("is claimed once, as private as a fresh one: 0700, this uid's, only its record and empty masks", () => {
    const dir = stage();
    const claimed = claimStagedRunDir();
    expect(claimed).toEqual({ dir, maskCount: 3 });
    expect(claimStagedRunDir()).toBeNull();
    const uid = process.getuid?.() ?? 0;
    expect(readdirSync(dir).sort()).toEqual(["0", "1", "2", OWNER_RECORD_NAME]);
    for (const entry of [dir, ...["0", "1", "2"].map((name) => path.join(dir, name))]) {
      const stats = lstatSync(entry);
      expect(stats.isDirectory()).toBe(true);
      expect(stats.mode & 0o7777).toBe(0o700);
      expect(stats.uid).toBe(uid);
    }
    for (const name of ["0", "1", "2"]) expect(readdirSync(path.join(dir, name))).toEqual([]);
  });

  it("stages at most one directory", () => {
    const dir = stage();
    stageRunDir(() => {
      throw new Error("must not be called while one is staged");
    }, 3);
    expect(stagedRunDirPath()).toBe(dir);
  });

  const tamperings: [string, (dir: string) => void][] = [
    ["a file planted in a mask", (dir) => writeFileSync(path.join(dir, "0", "planted"), "x")],
    ["a directory planted in a mask", (dir) => mkdirSync(path.join(dir, "2", "planted"))],
    ["an entry added beside the masks", (dir) => writeFileSync(path.join(dir, "extra"), "")],
    ["a mask made group-readable", (dir) => chmodSync(path.join(dir, "1"), 0o750)],
    ["the directory made group-readable", (dir) => chmodSync(dir, 0o750)],
    ["the record rewritten", (dir) => writeFileSync(path.join(dir, OWNER_RECORD_NAME), '{"pid":1}\n')],
    [
      "the directory swapped for another of the same name",
      (dir) => {
        rmSync(dir, { recursive: true });
        mkdirSync(dir, { mode: 0o700 });
        for (const name of ["0", "1", "2"]) mkdirSync(path.join(dir, name), { mode: 0o700 });
        writeFileSync(path.join(dir, OWNER_RECORD_NAME), `${JSON.stringify({ pid: process.pid })}\n`);
      },
    ],
  ];

  it.each(tamperings)("is not used after %s, and is removed", (_, tamper) => {
    const dir = stage();
    tamper(dir);
    expect(claimStagedRunDir()).toBeNull();
    expect(existsSync(dir)).toBe(false);
    expect(stagedRunDirPath()).toBeNull();
  });

  it("stages nothing when the directory cannot be made", () => {
    stageRunDir(() => null, 3);
    expect(stagedRunDirPath()).toBeNull();
    stageRunDir(() => {
      throw Object.assign(new Error("no space"), { code: "ENOSPC" });
    }, 3);
    expect(stagedRunDirPath()).toBeNull();
  });
});
