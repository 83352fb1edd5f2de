import { describe, expect, it } from "vitest";
import { followsRedacted, startsNewUnit } from "./redacted-values.js";

describe("followsRedacted", () => {
  it("holds after blanks and the replacement only", () => {
    expect(followsRedacted("token [R] x", 5, "[R]")).toBe(true);
    expect(followsRedacted("token \t [R]", 5, "[R]")).toBe(true);
    expect(followsRedacted("token[R]", 5, "[R]")).toBe(false);
    expect(followsRedacted("token [r]", 5, "[R]")).toBe(false);
    expect(followsRedacted("token ", 5, "[R]")).toBe(false);
    expect(followsRedacted("token [", 5, "[R]")).toBe(false);
  });
});

describe("startsNewUnit", () => {
  it("tells a stretch that differs from the one before it", () => {
    // `a1 ` at 0, `a2 ` at 3, `a2 ` at 6.
    const text = "a1 a2 a2 a2 ";
    expect(startsNewUnit(text, 3, 6)).toBe(true);
    expect(startsNewUnit(text, 6, 9)).toBe(false);
  });

  it("is false without an earlier stretch of the same length", () => {
    expect(startsNewUnit("a1 a2 ", -1, 3)).toBe(false);
    expect(startsNewUnit("a1 a2 a3 ", 2, 6)).toBe(false);
    expect(startsNewUnit("a1 a2 ", 3, 3)).toBe(false);
  });
});
