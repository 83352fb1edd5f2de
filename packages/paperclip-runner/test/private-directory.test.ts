import { execFileSync } from "node:child_process";
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
  verifyPrivateDirectory,
} from "../src/private-fs/index.js";

const OTHER_UID = 65534;

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
  it.each([0o022, 0o000, 0o700])(
    "creates a 0700 directory under umask %o and leaves the umask as it was",
    async (umask) => {
      const dir = tempDirForTest();
      const previous = process.umask(umask);
      let during: number;
      try {
        await createPrivateDirectory(join(dir, "state"));
      } finally {
        during = process.umask(previous);
      }
      expect(during).toBe(umask);
      expect((await stat(join(dir, "state"))).mode & 0o777).toBe(0o700);
    },
  );

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

  it("never chmods what another user swapped in for the directory it just made", async () => {
    // A parent other users may write (a shared 0777 drop directory, or a group's 0775 one):
    // between the mkdir and the mode fix, one renames the new directory away and leaves a
    // symlink to a file of ours under its name.
    const dir = tempDirForTest();
    await chmod(dir, 0o711);
    const parent = join(dir, "shared");
    await mkdir(parent);
    await chmod(parent, 0o777);
    const victim = join(dir, "victim.conf");
    await writeFile(victim, "ours\n");
    await chmod(victim, 0o644);
    const state = join(parent, "state");
    const error = await caught(
      createPrivateDirectory(state, {
        afterCreate: async () => {
          execFileSync("setpriv", [
            `--reuid=${OTHER_UID}`,
            `--regid=${OTHER_UID}`,
            "--clear-groups",
            "sh",
            "-c",
            'mv "$1" "$1.moved" && ln -s "$2" "$1"',
            "attacker",
            state,
            victim,
          ]);
        },
      }),
    );
    expect((await stat(victim)).mode & 0o777).toBe(0o644);
    // The symlink is refused as what it is when the new directory is verified.
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_DIR_NOT_DIRECTORY");
    expect((await lstat(state)).isSymbolicLink()).toBe(true);
  });

  it("reports a missing parent with its OS error", async () => {
    const dir = tempDirForTest();
    const error = await caught(createPrivateDirectory(join(dir, "no", "parent")));
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_DIR_MISSING");
    expect(error.details.errno).toBe("ENOENT");
    expect(error.details.syscall).toBe("mkdir");
  });
});
