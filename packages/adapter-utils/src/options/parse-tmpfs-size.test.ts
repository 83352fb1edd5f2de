import { describe, expect, it } from "vitest";
import { MIN_TMPFS_SIZE_BYTES, parseTmpfsSize } from "./parse-tmpfs-size.js";

describe("parseTmpfsSize", () => {
  it("takes unset as no cap and a whole number of bytes from one page up as the cap", () => {
    expect(parseTmpfsSize(undefined)).toBeNull();
    expect(parseTmpfsSize(null)).toBeNull();
    expect(parseTmpfsSize(MIN_TMPFS_SIZE_BYTES)).toBe(4096);
    expect(parseTmpfsSize(64 * 1024 * 1024)).toBe(67108864);
    expect(parseTmpfsSize(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("refuses what bwrap or tmpfs would read as something else (0 is no limit to tmpfs)", () => {
    for (const bad of [
      0,
      -4096,
      4095,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      2 ** 53,
      "64m",
      "4096",
      true,
      {},
    ]) {
      expect(() => parseTmpfsSize(bad), String(bad)).toThrow(
        expect.objectContaining({ code: "ERR_SANDBOX_TMPFS_SIZE" }),
      );
    }
  });

  it("keeps a long string out of the message", () => {
    expect(() => parseTmpfsSize("x".repeat(1000))).toThrow(`got "${"x".repeat(40)}".`);
  });
});
