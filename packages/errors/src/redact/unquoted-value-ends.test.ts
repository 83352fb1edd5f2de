import { describe, expect, it } from "vitest";
import type { RedactionContext } from "./redaction-context.js";
import { UnquotedValueEnds } from "./unquoted-value-ends.js";

const freshContext = (): RedactionContext => ({ replacement: "[REDACTED]", steps: 0 });

describe("UnquotedValueEnds", () => {
  it("finds the first whitespace, comma or semicolon at or after a position", () => {
    const ends = new UnquotedValueEnds("abc def,ghi;jkl\tmno");
    const context = freshContext();
    expect(ends.endFrom(0, false, context)).toBe(3);
    expect(ends.endFrom(4, false, context)).toBe(7);
    expect(ends.endFrom(8, false, context)).toBe(11);
    expect(ends.endFrom(12, false, context)).toBe(15);
  });

  it("answers with the text's length when no end follows", () => {
    expect(new UnquotedValueEnds("abcdef").endFrom(2, false, freshContext())).toBe(6);
  });

  it("ends a query-string value at & and # too, but not a plain one", () => {
    const text = "a=1&b=2#frag rest";
    expect(new UnquotedValueEnds(text).endFrom(0, true, freshContext())).toBe(3);
    expect(new UnquotedValueEnds(text).endFrom(0, false, freshContext())).toBe(12);
  });

  it("reads a long run once: later positions before the end found cost nothing", () => {
    const ends = new UnquotedValueEnds(`${"x".repeat(1000)} tail`);
    const context = freshContext();
    expect(ends.endFrom(0, false, context)).toBe(1000);
    const afterFirst = context.steps;
    expect(afterFirst).toBeGreaterThanOrEqual(1000);
    expect(ends.endFrom(500, false, context)).toBe(1000);
    expect(ends.endFrom(999, false, context)).toBe(1000);
    expect(context.steps).toBe(afterFirst);
    // Past the end found, it searches again.
    expect(ends.endFrom(1001, false, context)).toBe(1005);
    expect(context.steps).toBeGreaterThan(afterFirst);
  });
});
