import { spawn, spawnSync } from "node:child_process";
import { readFileSync, renameSync, truncateSync } from "node:fs";
import { mkdir, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { caught } from "@paperclipai/errors/testing";
import { childForTest, tempDirForTest } from "@paperclipai/test-support";
import * as tar from "tar";
import { describe, expect, it, onTestFinished } from "vitest";
import { type PackRules, packDirectory } from "./checked-pack.js";
import { packWindow } from "./pack-window.js";

const everything: PackRules = { excluded: () => false, allows: () => true, packed: () => undefined };

/** The archive's entries as tar reads them back: path, type, mode, link, content. */
async function entries(source: AsyncIterable<Uint8Array>): Promise<string[]> {
  const seen: string[] = [];
  const parser = new tar.Parser();
  parser.on("entry", (entry: tar.ReadEntry) => {
    const parts: Buffer[] = [];
    entry.on("data", (chunk: Buffer) => parts.push(chunk));
    entry.on("end", () => {
      const content = Buffer.concat(parts).toString();
      seen.push(
        [entry.path, entry.type, entry.mode?.toString(8), entry.linkpath, content].filter(Boolean).join(" "),
      );
    });
  });
  for await (const chunk of source) parser.write(Buffer.from(chunk));
  parser.end();
  return seen;
}

/** The whole archive, as one buffer. */
async function archive(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of source) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

/** Where the kernel has `pid` asleep: "0" once it runs again, "exited" once it is gone. */
function sleepsIn(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/wchan`, "utf8");
  } catch {
    return "exited";
  }
}

/** The kernel's names for a FIFO open waiting for its other end (the helper, or its caller if inlined). */
const FIFO_OPEN_WAIT = /^(wait_for_partner|fifo_open)$/;

/**
 * A process blocked opening the FIFO `path` for writing: the kernel wakes it as soon as anyone
 * opens the FIFO for reading, even to close it at once, so while it sleeps no one has.
 */
async function blockedWriter(path: string): Promise<number> {
  const writer = childForTest(() => spawn("/bin/sh", ["-c", 'exec 3>"$1"', "sh", path], { stdio: "ignore" }));
  const pid = writer.pid!;
  await expect.poll(() => sleepsIn(pid), { timeout: 20_000 }).toMatch(FIFO_OPEN_WAIT);
  return pid;
}

describe("packDirectory", () => {
  it("writes tar's portable shape: `./` paths, links as links, long names through pax", async () => {
    const dir = tempDirForTest("createos-pack-");
    const long = "n".repeat(180);
    await mkdir(join(dir, "d"));
    await writeFile(join(dir, "d/f.txt"), "f\n", { mode: 0o664 });
    await writeFile(join(dir, long), "long\n");
    await symlink("d/f.txt", join(dir, "l"));
    expect((await entries(packDirectory(dir, false, everything))).sort()).toEqual(
      [
        "./ Directory 700",
        "./d/ Directory 755",
        "./d/f.txt File 644 f\n",
        `./${long} File 644 long\n`,
        "./l SymbolicLink 755 d/f.txt",
      ].sort(),
    );
  });

  it("follows links when asked, and packs a directory reached again through one only once", async () => {
    const dir = tempDirForTest("createos-pack-");
    await mkdir(join(dir, "d"));
    await writeFile(join(dir, "d/f.txt"), "f\n");
    await symlink("..", join(dir, "d/up"));
    const packed = await entries(packDirectory(dir, true, everything));
    expect(packed.sort()).toEqual(
      ["./ Directory 700", "./d/ Directory 755", "./d/f.txt File 644 f\n"].sort(),
    );
  });

  it("never opens an excluded entry and leaves out what the check refuses", async () => {
    const dir = tempDirForTest("createos-pack-");
    await writeFile(join(dir, "kept.txt"), "kept\n");
    await writeFile(join(dir, "refused.txt"), "refused\n");
    await symlink("/nonexistent/target", join(dir, "excluded"));
    const asked: string[] = [];
    const packed = await entries(
      packDirectory(dir, true, {
        excluded: (path) => path === "./excluded",
        allows: (path, opened) => {
          asked.push(path);
          return opened !== undefined && !opened.endsWith("refused.txt");
        },
        packed: () => undefined,
      }),
    );
    expect(packed.sort()).toEqual(["./ Directory 700", "./kept.txt File 644 kept\n"].sort());
    expect(asked.sort()).toEqual([".", "./kept.txt", "./refused.txt"]);
  });

  it("fails with ERR_CREATEOS_SYNC_SOURCE_CHANGED when a file shrinks after its header was written", async () => {
    const dir = tempDirForTest("createos-pack-");
    await writeFile(join(dir, "data.txt"), "0123456789\n");
    packWindow.afterCheck = (path) => {
      if (path === "./data.txt") truncateSync(join(dir, "data.txt"), 3);
    };
    onTestFinished(() => {
      packWindow.afterCheck = undefined;
    });
    const error = await caught(entries(packDirectory(dir, false, everything)));
    expect(PaperclipError.is(error, "ERR_CREATEOS_SYNC_SOURCE_CHANGED")).toBe(true);
    expect(error.details).toMatchObject({ entry: "./data.txt" });
    expect(error.retryable).toBe(true);
  });

  it("keeps the dates of files and directories, as tar's portable pack does", async () => {
    const dir = tempDirForTest("createos-pack-");
    const out = tempDirForTest("createos-unpack-");
    await mkdir(join(dir, "d"));
    await writeFile(join(dir, "d/f.txt"), "f\n");
    const dates: Record<string, Date> = {
      "d/f.txt": new Date("2001-02-03T04:05:06Z"),
      d: new Date("2002-03-04T05:06:07Z"),
      ".": new Date("2003-04-05T06:07:08Z"),
    };
    for (const [path, date] of Object.entries(dates)) await utimes(join(dir, path), date, date);
    // Extracted by tar, as the sandbox does: into a directory that exists, as into the workspace root.
    const tar = spawnSync("tar", ["-x", "-f", "-", "-C", out], {
      input: await archive(packDirectory(dir, false, everything)),
    });
    expect({ status: tar.status, stderr: tar.stderr.toString() }).toEqual({ status: 0, stderr: "" });
    for (const [path, date] of Object.entries(dates)) {
      expect({ path, mtime: (await stat(join(out, path))).mtime.toISOString() }).toEqual({
        path,
        mtime: date.toISOString(),
      });
    }
  });

  it("never opens a FIFO or a device, not even through a followed link", async () => {
    const dir = tempDirForTest("createos-pack-");
    const outside = tempDirForTest("createos-pack-outside-");
    await writeFile(join(dir, "kept.txt"), "kept\n");
    const fifos = [join(dir, "pipe"), join(outside, "pipe")];
    for (const fifo of fifos) expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    await symlink(fifos[1]!, join(dir, "linked-pipe"));
    // Read, /dev/zero would never end.
    await symlink("/dev/zero", join(dir, "zero"));
    const writers = await Promise.all(fifos.map(blockedWriter));

    expect((await entries(packDirectory(dir, false, everything))).sort()).toEqual(
      [
        "./ Directory 700",
        "./kept.txt File 644 kept\n",
        `./linked-pipe SymbolicLink 755 ${fifos[1]}`,
        "./zero SymbolicLink 755 /dev/zero",
      ].sort(),
    );
    expect((await entries(packDirectory(dir, true, everything))).sort()).toEqual(
      ["./ Directory 700", "./kept.txt File 644 kept\n"].sort(),
    );
    for (const pid of writers) expect(sleepsIn(pid)).toMatch(FIFO_OPEN_WAIT);
  });

  it.each([
    ["without following links", false],
    ["following links", true],
  ])(
    "never opens a FIFO swapped in for a file once the file's type was judged (%s)",
    async (_name, follow) => {
      const dir = tempDirForTest("createos-pack-");
      const outside = tempDirForTest("createos-pack-outside-");
      await writeFile(join(dir, "data.txt"), "checked\n");
      const fifo = join(outside, "pipe");
      expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
      const writer = await blockedWriter(fifo);
      packWindow.beforeOpen = (path) => {
        if (path === "./data.txt") renameSync(fifo, join(dir, "data.txt"));
      };
      onTestFinished(() => {
        packWindow.beforeOpen = undefined;
      });

      const packed = await entries(packDirectory(dir, follow, everything));
      expect(sleepsIn(writer)).toMatch(FIFO_OPEN_WAIT);
      // What was judged is what is packed: the file, read through the descriptor it was judged on.
      expect(packed.sort()).toEqual(["./ Directory 700", "./data.txt File 644 checked\n"].sort());
    },
  );
});
