import { describe, expect, it } from "vitest";
import { entryFootprint, reservedBytes, reservedEntries } from "./host-room.js";

describe("reservedBytes", () => {
  it("keeps 5% of a file system free, never more than 1 GiB", () => {
    expect(reservedBytes(16 * 1024 ** 2)).toBe(838_860);
    expect(reservedBytes(10 * 1024 ** 3)).toBe(536_870_912);
    expect(reservedBytes(2 * 1024 ** 4)).toBe(1024 ** 3);
    expect(reservedBytes(0)).toBe(0);
  });
});

describe("reservedEntries", () => {
  it("keeps 5% of a file system's inodes free, never more than 1 Mi", () => {
    expect(reservedEntries(1_000)).toBe(50);
    expect(reservedEntries(6_553_600)).toBe(327_680);
    expect(reservedEntries(100_000_000)).toBe(1024 ** 2);
    expect(reservedEntries(0)).toBe(0);
  });
});

describe("entryFootprint", () => {
  it("counts a file's content in whole blocks, a directory or a symbolic link as one block", () => {
    expect(entryFootprint("File", 0, 4096)).toBe(0);
    expect(entryFootprint("File", 1, 4096)).toBe(4096);
    expect(entryFootprint("File", 4097, 4096)).toBe(8192);
    expect(entryFootprint("Directory", 0, 4096)).toBe(4096);
    expect(entryFootprint("SymbolicLink", 0, 4096)).toBe(4096);
    expect(entryFootprint("Link", 0, 4096)).toBe(0);
  });
});
