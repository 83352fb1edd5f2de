import { constants } from "node:fs";
import { chmod, chown, link, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { caught } from "@paperclipai/errors/testing";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { openPrivateFile } from "../src/private-fs/index.js";

const OTHER_UID = 65534;

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

  it("refuses a hard link to another file: a write through it would land in that file", async () => {
    const dir = tempDirForTest();
    await writeFile(join(dir, "victim"), "victim's bytes", { mode: 0o600 });
    await link(join(dir, "victim"), join(dir, "state"));
    const error = await caught(openPrivateFile(join(dir, "state"), constants.O_WRONLY));
    expect(error.code).toBe("ERR_RUNNER_PRIVATE_FILE_NOT_REGULAR");
    expect(error.details).toEqual({ kind: "hard-link", nlink: 2 });
    expect(await readFile(join(dir, "victim"), "utf8")).toBe("victim's bytes");
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
