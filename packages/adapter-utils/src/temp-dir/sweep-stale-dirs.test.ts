import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { readOwnerRecord, removeOwnerRecord, writeOwnerRecord } from "./owner-record.js";
import { SWEEP_INTERVAL_MS, sweepOwnerRegistries, sweepStaleProxyDirsThrottled } from "./sweep-stale-dirs.js";

describe("sweepStaleProxyDirsThrottled", () => {
  it("sweeps a base directory at most once per interval", async () => {
    const base = tempDirForTest("pc-sweep-unit-");
    const stale = async (name: string) => {
      const dir = path.join(base, `paperclip-network-sandbox-${name}`);
      await mkdir(dir);
      // pid 2^22+1 is above Linux's pid_max limit, so no process can have it.
      writeOwnerRecord(dir, { pid: 4_194_305, startTicks: null });
      return dir;
    };
    const first = await stale("first1");
    expect(await sweepStaleProxyDirsThrottled(base, 1_000)).toEqual([first]);
    await stale("second");
    expect(await sweepStaleProxyDirsThrottled(base, 1_000 + SWEEP_INTERVAL_MS - 1)).toEqual([]);
    const [second] = await sweepStaleProxyDirsThrottled(base, 1_000 + SWEEP_INTERVAL_MS);
    expect(second).toMatch(/second$/);
    await Promise.all([first, second!].map(removeOwnerRecord));
  });
});

describe("sweepOwnerRegistries", () => {
  it("removes the directory of a dead owner wherever it lives, and its record; a live owner's stays", async () => {
    const base = tempDirForTest("pc-sweep-registry-");
    const make = async (name: string) => {
      const dir = path.join(base, `paperclip-network-sandbox-${name}`);
      await mkdir(dir);
      return dir;
    };
    const dead = await make("dead01");
    const alive = await make("alive1");
    // pid 2^22+1 is above Linux's pid_max limit, so no process can have it.
    writeOwnerRecord(dead, { pid: 4_194_305, startTicks: null });
    writeOwnerRecord(alive);
    try {
      expect(await sweepOwnerRegistries()).toContain(dead);
      expect(existsSync(dead)).toBe(false);
      expect(await readOwnerRecord(dead)).toBeNull();
      expect(existsSync(alive)).toBe(true);
      expect(await readOwnerRecord(alive)).not.toBeNull();
    } finally {
      await removeOwnerRecord(alive);
    }
  });
});
