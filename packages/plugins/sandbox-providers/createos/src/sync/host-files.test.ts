import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { releaseStaging } from "./held-staging.js";
import { makeStagingDir, promoteDirectory } from "./host-files.js";
import { newTreePath, stagingPrefix } from "./staging-name.js";

describe("promoteDirectory", () => {
  it("replaces a target whose staging name is as long as the file system allows", async () => {
    const host = tempDirForTest("createos-promote-");
    // A staging name is its prefix and a UUID: 255 bytes, so `<staging>.old` would not fit.
    const base = "t".repeat(255 - 36 - stagingPrefix(join(host, "t")).length + 1);
    const target = join(host, base);
    await mkdir(target);
    await writeFile(join(target, "old.txt"), "old\n");
    const staging = await makeStagingDir(target);
    expect(staging.length - host.length - 1).toBe(255);
    await writeFile(join(staging, "new.txt"), "new\n");

    try {
      await promoteDirectory(staging, target);
    } finally {
      releaseStaging(staging);
    }
    expect(await readdir(host)).toEqual([base]);
    expect(await readdir(target)).toEqual(["new.txt"]);
  });

  it("moves the old tree aside where the next sync puts it back if the worker is killed there", async () => {
    const host = tempDirForTest("createos-promote-");
    const target = join(host, "target");
    // What a worker killed between its two renames leaves now: its `.old`, named for the hash.
    const old = newTreePath(target, "old").replace(`-p${process.pid}-`, "-p2147483646-");
    await mkdir(old);
    await writeFile(join(old, "mine.txt"), "only copy\n");

    // The next sync out: it sweeps, stages, then fails before its promotion.
    const staging = await makeStagingDir(target);
    releaseStaging(staging);
    await rm(staging, { recursive: true });
    expect(await readdir(host)).toEqual(["target"]);
    expect(await readdir(target)).toEqual(["mine.txt"]);
  });
});
