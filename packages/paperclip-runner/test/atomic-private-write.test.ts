import { lstat, mkdir, readdir, readFile, rename, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { caught } from "@paperclipai/errors/testing";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { atomicPrivateWrite, sweepStaleTemporaries } from "../src/private-fs/index.js";

const DEAD_PID = 4_194_400; // above the kernel's pid_max limit (2^22), so never a live process

describe("atomicPrivateWrite", () => {
  it("writes a 0600 file under a permissive umask and leaves no temporary file", async () => {
    const dir = tempDirForTest();
    const previous = process.umask(0o000);
    try {
      await atomicPrivateWrite(dir, "state.json", "one");
      await atomicPrivateWrite(dir, "state.json", new TextEncoder().encode("two"));
    } finally {
      process.umask(previous);
    }
    expect(await readFile(join(dir, "state.json"), "utf8")).toBe("two");
    expect((await stat(join(dir, "state.json"))).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(["state.json"]);
  });

  it("replaces a symlink at the destination instead of writing through it", async () => {
    const dir = tempDirForTest();
    const outside = tempDirForTest();
    await writeFile(join(outside, "victim"), "untouched");
    await symlink(join(outside, "victim"), join(dir, "state.json"));
    await atomicPrivateWrite(dir, "state.json", "mine");
    expect(await readFile(join(outside, "victim"), "utf8")).toBe("untouched");
    expect((await lstat(join(dir, "state.json"))).isFile()).toBe(true);
  });

  it("does not follow a symlink planted at a temporary name", async () => {
    const dir = tempDirForTest();
    const outside = tempDirForTest();
    await writeFile(join(outside, "victim"), "untouched");
    await symlink(join(outside, "victim"), join(dir, `.state.json.${process.pid}.0.tmp`));
    await atomicPrivateWrite(dir, "state.json", "mine");
    expect(await readFile(join(outside, "victim"), "utf8")).toBe("untouched");
    expect(await readFile(join(dir, "state.json"), "utf8")).toBe("mine");
  });

  it("throws could not allocate a private temporary file when all 32 names exist", async () => {
    const dir = tempDirForTest();
    for (let attempt = 0; attempt < 32; attempt += 1) {
      await writeFile(join(dir, `.state.json.${process.pid}.${attempt}.tmp`), "");
    }
    const error = await caught(atomicPrivateWrite(dir, "state.json", "x"));
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_WRITE_TEMP_EXHAUSTED");
    expect(error.message).toBe("could not allocate a private temporary file");
    expect(error.details).toEqual({ name: "state.json", attempts: 32 });
  });

  it("removes the temporary file when the rename fails", async () => {
    const dir = tempDirForTest();
    await mkdir(join(dir, "state.json"));
    await writeFile(join(dir, "state.json", "occupied"), "");
    const error = await caught(atomicPrivateWrite(dir, "state.json", "x"));
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_WRITE_FAILED");
    expect(error.details.syscall).toBe("rename");
    expect(await readdir(dir)).toEqual(["state.json"]);
  });

  it("refuses to rename into a directory swapped during the write", async () => {
    const dir = tempDirForTest();
    const target = join(dir, "state");
    await mkdir(target, { mode: 0o700 });
    const error = await caught(
      atomicPrivateWrite(target, "state.json", "x", {
        beforeRename: async () => {
          await rename(target, join(dir, "moved"));
          await mkdir(target, { mode: 0o700 });
        },
      }),
    );
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_DIR_SWAPPED");
    expect(await readdir(target)).toEqual([]);
  });

  it("refuses a name that is not a single path component", async () => {
    const dir = tempDirForTest();
    const error = await caught(atomicPrivateWrite(dir, "../escape", "x"));
    expect(error.code).toBe("ERR_RUNNER_INVALID_ARGUMENT");
    expect(error.message).toBe("invalid name: must be a single path component");
  });
});

describe("sweepStaleTemporaries", () => {
  it("removes the temporary files of dead processes only", async () => {
    const dir = tempDirForTest();
    const dead = `.state.json.${DEAD_PID}.3.tmp`;
    const mine = `.state.json.${process.pid}.0.tmp`;
    const parent = `.state.json.${process.ppid}.0.tmp`;
    for (const name of [dead, mine, parent, "unrelated.tmp"]) await writeFile(join(dir, name), "");
    expect(await sweepStaleTemporaries(dir, "state.json")).toEqual([dead]);
    expect((await readdir(dir)).sort()).toEqual([mine, parent, "unrelated.tmp"].sort());
  });

  it("runs before each atomic write", async () => {
    const dir = tempDirForTest();
    await writeFile(join(dir, `.state.json.${DEAD_PID}.0.tmp`), "partial");
    await atomicPrivateWrite(dir, "state.json", "x");
    expect(await readdir(dir)).toEqual(["state.json"]);
  });
});
