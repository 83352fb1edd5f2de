import { TRUNCATION_SUFFIX } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { boundedText, MAX_EVENT_TEXT, MAX_EVENT_TEXT_BYTES } from "./bounded-text.js";

describe("boundedText", () => {
  it("keeps text of at most 4000 characters as it is", () => {
    expect(boundedText("x".repeat(MAX_EVENT_TEXT))).toBe("x".repeat(MAX_EVENT_TEXT));
    expect(boundedText("😀".repeat(1024))).toBe("😀".repeat(1024));
  });

  it("cuts longer text to 4000 characters, the truncation marker included (as upstream's runner)", () => {
    const bounded = boundedText("x".repeat(5000));
    expect(bounded).toHaveLength(MAX_EVENT_TEXT);
    expect(bounded).toBe(`${"x".repeat(MAX_EVENT_TEXT - 12)}${TRUNCATION_SUFFIX}`);
  });

  it("cuts multi-byte text where it would pass 4096 UTF-8 bytes, never inside a character (as upstream's runner)", () => {
    // 1024 four-byte characters fill 4096 bytes; one more passes the bound.
    expect(boundedText("😀".repeat(1025))).toBe(`${"😀".repeat(1024)}${TRUNCATION_SUFFIX}`);
    // A 2-byte character ending on byte 4097 is cut off (as upstream's binary cuts it, the `further` oracle).
    expect(boundedText(`x${"é".repeat(2048)}y`)).toBe(`x${"é".repeat(2047)}${TRUNCATION_SUFFIX}`);
    // ASCII up to byte 4096 is kept, the 4-byte character after it is not.
    expect(boundedText(`${"a".repeat(4096)}😀`)).toBe(`${"a".repeat(3988)}${TRUNCATION_SUFFIX}`);
    expect(boundedText(`${"é".repeat(2000)}${"a".repeat(96)}😀`)).toBe(
      `${"é".repeat(2000)}${"a".repeat(96)}${TRUNCATION_SUFFIX}`,
    );
    // Mixed text: the kept part is the longest prefix within the byte bound.
    const mixed = "日本語 é 👩‍💻 ".repeat(400);
    const kept = boundedText(mixed).slice(0, -TRUNCATION_SUFFIX.length);
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(MAX_EVENT_TEXT_BYTES);
    const next = Array.from(mixed.slice(kept.length))[0] ?? "";
    expect(Buffer.byteLength(kept + next)).toBeGreaterThan(MAX_EVENT_TEXT_BYTES);
    // A lone surrogate would come back from UTF-8 as U+FFFD.
    expect(Buffer.from(kept).toString()).toBe(kept);
  });

  it("keeps the character bound when it cuts sooner than the byte bound", () => {
    const bounded = boundedText(`${"x".repeat(3990)}${"é".repeat(20)}`);
    expect(bounded).toBe(`${"x".repeat(MAX_EVENT_TEXT - 12)}${TRUNCATION_SUFFIX}`);
  });

  it("redacts before it cuts, so no half secret is left at the cut", () => {
    const secret = `sk-proj-${"A1b2C3d4E5".repeat(4)}`;
    const bounded = boundedText(`${"x".repeat(MAX_EVENT_TEXT - 40)} ${secret} ${"y".repeat(100)}`);
    expect(bounded).not.toContain("sk-proj");
    expect(bounded).toContain("[REDACTED]");
    expect(boundedText(`token ${secret}`)).not.toContain("A1b2C3d4E5");
  });

  it("turns anything but a string into empty text", () => {
    expect(boundedText(undefined)).toBe("");
    expect(boundedText(42)).toBe("");
  });
});
