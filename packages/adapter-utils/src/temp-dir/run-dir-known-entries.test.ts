import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { OWNER_RECORD_NAME } from "./owner-record-location.js";
import { maskDirPath, removedByKnownEntries } from "./run-dir-known-entries.js";

/** A run directory as a deny build leaves it: its record and `maskCount` mask directories. */
function runDir(maskCount: number): string {
  const dir = path.join(tempDirForTest("pc-known-entries-"), "run");
  mkdirSync(dir, { mode: 0o700 });
  writeFileSync(path.join(dir, OWNER_RECORD_NAME), "{}");
  for (let index = 0; index < maskCount; index += 1) mkdirSync(maskDirPath(dir, index), { mode: 0o700 });
  return dir;
}

describe("removedByKnownEntries", () => {
  it("names mask directories <runDir>/<n>", () => {
    expect(maskDirPath("/r", 2)).toBe("/r/2");
  });

  it("removes the masks, the record and the directory, a mask holding links unlinked, never followed", () => {
    const outside = tempDirForTest("pc-known-entries-outside-");
    writeFileSync(path.join(outside, "keep.txt"), "keep");
    const dir = runDir(3);
    symlinkSync(outside, path.join(maskDirPath(dir, 0), "to-dir"));
    expect(removedByKnownEntries(dir, 3)).toBe(true);
    expect(existsSync(dir)).toBe(false);
    expect(readFileSync(path.join(outside, "keep.txt"), "utf8")).toBe("keep");
  });

  it("removes the mount points it is told of by path, one already gone included", () => {
    const dir = runDir(2);
    mkdirSync(path.join(maskDirPath(dir, 0), "ws"));
    writeFileSync(path.join(maskDirPath(dir, 1), "file-bind"), "");
    const points = [path.join(maskDirPath(dir, 0), "ws"), path.join(maskDirPath(dir, 1), "file-bind")];
    expect(removedByKnownEntries(dir, 2, [...points, path.join(maskDirPath(dir, 0), "gone")])).toBe(true);
    expect(existsSync(dir)).toBe(false);
  });

  it("leaves a mount point that is not empty, with its mask, to the walk", () => {
    const dir = runDir(1);
    mkdirSync(path.join(maskDirPath(dir, 0), "full", "inner"), { recursive: true });
    expect(removedByKnownEntries(dir, 1, [path.join(maskDirPath(dir, 0), "full")])).toBe(false);
    expect(existsSync(path.join(maskDirPath(dir, 0), "full", "inner"))).toBe(true);
  });

  it("never follows a mount point that is a link: the link goes, its target stays", () => {
    const outside = tempDirForTest("pc-known-entries-outside-");
    mkdirSync(path.join(outside, "empty"));
    const dir = runDir(1);
    symlinkSync(path.join(outside, "empty"), path.join(maskDirPath(dir, 0), "ws"));
    expect(removedByKnownEntries(dir, 1, [path.join(maskDirPath(dir, 0), "ws")])).toBe(true);
    expect(existsSync(path.join(outside, "empty"))).toBe(true);
  });

  it("puts the record's known text back, unread, when the directory resists", () => {
    const dir = runDir(1);
    writeFileSync(path.join(dir, "extra"), "");
    expect(removedByKnownEntries(dir, 1, [], "known\n")).toBe(false);
    expect(readFileSync(path.join(dir, OWNER_RECORD_NAME), "utf8")).toBe("known\n");
  });

  it.each([
    ["an entry it does not know", (dir: string) => writeFileSync(path.join(dir, "extra"), "")],
    [
      "a mask it cannot empty in the call",
      (dir: string) => mkdirSync(path.join(maskDirPath(dir, 1), "a", "b"), { recursive: true }),
    ],
    [
      "a mask that is a link",
      (dir: string) => {
        const target = tempDirForTest("pc-known-entries-target-");
        writeFileSync(path.join(target, "keep.txt"), "keep");
        symlinkSync(target, path.join(dir, "3"));
      },
    ],
    [
      "no directory at all",
      (dir: string) => {
        writeFileSync(path.join(dir, "..", "gone"), "");
      },
    ],
  ])("returns false on %s, throwing nothing, and leaves the rest to the walk", (label, tamper) => {
    const dir = runDir(label === "a mask that is a link" ? 3 : 2);
    tamper(dir);
    const target = label === "no directory at all" ? path.join(dir, "..", "missing") : dir;
    expect(removedByKnownEntries(target, label === "a mask that is a link" ? 4 : 2)).toBe(false);
    if (label !== "no directory at all") expect(readdirSync(dir).length).toBeGreaterThan(0);
    // The record stays for the walk to remove last (a later sweep needs it if the walk fails).
    if (label !== "no directory at all")
      expect(readFileSync(path.join(dir, OWNER_RECORD_NAME), "utf8")).toBe("{}");
  });
});
