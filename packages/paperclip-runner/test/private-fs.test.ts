import { constants } from "node:fs";
import {
  chmod,
  chown,
  lstat,
  mkdir,
  readdir,
  readFile,
  rename,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";
import { caught } from "@paperclipai/errors/testing";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import {
  atomicPrivateWrite,
  createPrivateDirectory,
  openPrivateDirectory,
  openPrivateFile,
  sweepStaleTemporaries,
  verifyPrivateDirectory,
} from "../src/private-fs/index.js";

const OTHER_UID = 65534;
const DEAD_PID = 4_194_400; // above the kernel's pid_max limit (2^22), so never a live process

describe("verifyPrivateDirectory", () => {
  it("accepts a 0700 directory of ours", async () => {
    const dir = tempDirForTest();
    await chmod(dir, 0o700);
    await expect(verifyPrivateDirectory(dir)).resolves.toBeUndefined();
  });

  it.each([0o750, 0o755, 0o770, 0o707, 0o701])("refuses mode %o", async (mode) => {
    const dir = tempDirForTest();
    await chmod(dir, mode);
    const error = await caught(verifyPrivateDirectory(dir));
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_DIR_PERMISSIONS");
    expect(error.message).toBe("private directory is accessible by group or other users");
    expect(error.details.mode).toBe(`0${mode.toString(8)}`);
  });

  it("refuses a symlink to a private directory, and a regular file", async () => {
    const dir = tempDirForTest();
    await mkdir(join(dir, "real"), { mode: 0o700 });
    await symlink(join(dir, "real"), join(dir, "link"));
    await writeFile(join(dir, "file"), "x", { mode: 0o600 });
    for (const [name, kind] of [
      ["link", "symlink"],
      ["file", "file"],
    ] as const) {
      const error = await caught(verifyPrivateDirectory(join(dir, name)));
      expect(error.code).toBe("ERR_RUNNER_PRIVATE_DIR_NOT_DIRECTORY");
      expect(error.message).toBe("private path is not a real directory");
      expect(error.details.kind).toBe(kind);
    }
  });

  it("refuses a symlink spelled with a trailing slash or dot, which lstat and O_NOFOLLOW would follow", async () => {
    const dir = tempDirForTest();
    await mkdir(join(dir, "real"), { mode: 0o700 });
    await symlink(join(dir, "real"), join(dir, "link"));
    for (const spelling of ["link/", "link/.", "link//", "real/../link/"]) {
      const error = await caught(atomicPrivateWrite(`${dir}/${spelling}`, "f.txt", "x"));
      expect(error.code).toBe("ERR_RUNNER_PRIVATE_DIR_NOT_DIRECTORY");
      expect(error.details.kind).toBe("symlink");
    }
    expect(await readdir(join(dir, "real"))).toEqual([]);
    await atomicPrivateWrite(`${dir}/real/`, "f.txt", "y");
    expect(await readFile(join(dir, "real", "f.txt"), "utf8")).toBe("y");
  });

  it("refuses a directory owned by another uid", async () => {
    const dir = tempDirForTest();
    await chown(dir, OTHER_UID, OTHER_UID);
    const error = await caught(verifyPrivateDirectory(dir));
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_DIR_OWNER");
    expect(error.message).toBe("private directory is not owned by the effective user");
    expect(error.details).toEqual({ uid: OTHER_UID, euid: process.geteuid!() });
  });

  it("reports a missing directory with its OS error", async () => {
    const dir = tempDirForTest();
    const error = await caught(verifyPrivateDirectory(join(dir, "absent")));
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_DIR_MISSING");
    expect(error.message).toBe(`ENOENT: no such file or directory, lstat '${join(dir, "absent")}'`);
    expect(error.details).toEqual({ errno: "ENOENT", syscall: "lstat" });
  });

  it("catches a swap to a symlink between lstat and open", async () => {
    const dir = tempDirForTest();
    const target = join(dir, "state");
    await mkdir(target, { mode: 0o700 });
    await mkdir(join(dir, "elsewhere"), { mode: 0o700 });
    const error = await caught(
      verifyPrivateDirectory(target, {
        betweenCheckAndOpen: async () => {
          await rename(target, join(dir, "moved"));
          await symlink(join(dir, "elsewhere"), target);
        },
      }),
    );
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_DIR_SWAPPED");
    expect(error.message).toBe("private directory changed between check and use");
    // Linux checks O_DIRECTORY before O_NOFOLLOW on a symlink: ENOTDIR (ELOOP on other kernels).
    expect(["ENOTDIR", "ELOOP"]).toContain(error.details.errno);
  });

  it("catches a swap to another real directory by its inode", async () => {
    const dir = tempDirForTest();
    const target = join(dir, "state");
    await mkdir(target, { mode: 0o700 });
    const error = await caught(
      verifyPrivateDirectory(target, {
        betweenCheckAndOpen: async () => {
          await rename(target, join(dir, "moved"));
          await mkdir(target, { mode: 0o700 });
        },
      }),
    );
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_DIR_SWAPPED");
  });

  it("keeps the descriptor it checked", async () => {
    const dir = tempDirForTest();
    const opened = await openPrivateDirectory(dir);
    try {
      expect(opened.stats.ino).toBe((await lstat(dir)).ino);
      expect(opened.stats.isDirectory()).toBe(true);
    } finally {
      await opened.handle.close();
    }
  });
});

describe("createPrivateDirectory", () => {
  it("creates a 0700 directory even under a permissive umask", async () => {
    const dir = tempDirForTest();
    const previous = process.umask(0o022);
    try {
      await createPrivateDirectory(join(dir, "state"));
    } finally {
      process.umask(previous);
    }
    expect((await stat(join(dir, "state"))).mode & 0o777).toBe(0o700);
  });

  it("verifies an existing directory and never chmods it", async () => {
    const dir = tempDirForTest();
    await mkdir(join(dir, "shared"), { mode: 0o755 });
    await chmod(join(dir, "shared"), 0o755);
    expect((await caught(createPrivateDirectory(join(dir, "shared")))).code).toBe(
      "ERR_RUNNER_PRIVATE_DIR_PERMISSIONS",
    );
    expect((await stat(join(dir, "shared"))).mode & 0o777).toBe(0o755);
    await mkdir(join(dir, "ok"), { mode: 0o700 });
    await expect(createPrivateDirectory(join(dir, "ok"))).resolves.toBeUndefined();
  });

  it("reports a missing parent with its OS error", async () => {
    const dir = tempDirForTest();
    const error = await caught(createPrivateDirectory(join(dir, "no", "parent")));
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_DIR_MISSING");
    expect(error.details.errno).toBe("ENOENT");
    expect(error.details.syscall).toBe("mkdir");
  });
});

describe("openPrivateFile", () => {
  it("opens a 0600 file of ours", async () => {
    const dir = tempDirForTest();
    await writeFile(join(dir, "f"), "content", { mode: 0o600 });
    const handle = await openPrivateFile(join(dir, "f"));
    try {
      expect(await handle.readFile("utf8")).toBe("content");
    } finally {
      await handle.close();
    }
  });

  it("refuses a symlink to a private file without following it", async () => {
    const dir = tempDirForTest();
    await writeFile(join(dir, "f"), "content", { mode: 0o600 });
    await symlink(join(dir, "f"), join(dir, "link"));
    const error = await caught(openPrivateFile(join(dir, "link")));
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_FILE_NOT_REGULAR");
    expect(error.message).toBe("private path is not a regular file");
    expect(error.details.kind).toBe("symlink");
  });

  it("refuses a directory and a FIFO without blocking", async () => {
    const dir = tempDirForTest();
    await mkdir(join(dir, "d"), { mode: 0o700 });
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", ["-m", "600", join(dir, "fifo")]);
    expect((await caught(openPrivateFile(join(dir, "d")))).details.kind).toBe("directory");
    expect((await caught(openPrivateFile(join(dir, "fifo")))).details.kind).toBe("fifo");
  });

  it("refuses group or other bits, and another owner", async () => {
    const dir = tempDirForTest();
    await writeFile(join(dir, "wide"), "x");
    await chmod(join(dir, "wide"), 0o640);
    const wide = await caught(openPrivateFile(join(dir, "wide")));
    expect(wide.code).toBe("ERR_RUNNER_PRIVATE_FILE_PERMISSIONS");
    expect(wide.message).toBe("private file is accessible by group or other users");
    expect(wide.details.mode).toBe("0640");
    await writeFile(join(dir, "theirs"), "x", { mode: 0o600 });
    await chown(join(dir, "theirs"), OTHER_UID, OTHER_UID);
    const theirs = await caught(openPrivateFile(join(dir, "theirs"), constants.O_RDWR));
    expect(theirs.code).toBe("ERR_RUNNER_PRIVATE_FILE_OWNER");
    expect(theirs.message).toBe("private file is not owned by the effective user");
  });

  it("reports a missing file with its OS error", async () => {
    const dir = tempDirForTest();
    const error = await caught(openPrivateFile(join(dir, "absent")));
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_FILE_UNAVAILABLE");
    expect(error.message).toBe(`ENOENT: no such file or directory, open '${join(dir, "absent")}'`);
    expect(error.details.errno).toBe("ENOENT");
  });
});

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
