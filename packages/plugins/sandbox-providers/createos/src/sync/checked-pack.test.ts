import { truncateSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { caught } from "@paperclipai/errors/testing";
import { tempDirForTest } from "@paperclipai/test-support";
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
});
