import { describe, expect, it } from "vitest";
import { redactAndTruncate } from "./redact-and-truncate.js";
import { TRUNCATION_SUFFIX, truncateUtf8 } from "./truncate-utf8.js";

// Well-formed means a UTF-8 round trip gives the same string back (no lone surrogates).
const isWellFormed = (text: string): boolean => Buffer.from(text, "utf8").toString("utf8") === text;

describe("truncateUtf8", () => {
  it("keeps text that fits", () => {
    expect(truncateUtf8("héllo", 6)).toEqual({ text: "héllo", truncated: false });
  });

  it("cuts at a character boundary and appends the 14-byte suffix", () => {
    expect(Buffer.byteLength(TRUNCATION_SUFFIX)).toBe(14);
    const { text, truncated } = truncateUtf8("€€€€€€€€", 20);
    expect(truncated).toBe(true);
    expect(text).toBe(`€€${TRUNCATION_SUFFIX}`);
  });

  it("never splits a surrogate pair", () => {
    const { text } = truncateUtf8("😀😀😀😀😀😀", 14 + 6);
    expect(text).toBe(`😀${TRUNCATION_SUFFIX}`);
    expect(isWellFormed(text)).toBe(true);
  });

  it("replaces lone surrogates so the result is always well-formed", () => {
    expect(truncateUtf8("a\ud800b", 100).text).toBe("a\ufffdb");
  });

  it("returns an empty string when not even the suffix fits", () => {
    expect(truncateUtf8("abcdefghijklmnopqrstuvwxyz", 5)).toEqual({ text: "", truncated: true });
  });
});

describe("redactAndTruncate", () => {
  it("redacts before cutting, so no half secret survives the cut", () => {
    const message = `${"a".repeat(30)} password=supersecretvalue123`;
    const { text } = redactAndTruncate(message, 50);
    expect(text).not.toContain("supersecret");
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(50);
  });
});
