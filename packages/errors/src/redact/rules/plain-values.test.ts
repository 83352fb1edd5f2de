import { describe, expect, it } from "vitest";
import { MAX_PLAIN_VALUE, plainValueEnd, quotedValueEnd } from "./plain-values.js";

describe("plainValueEnd", () => {
  it("ends a value at whitespace, `,`, `;` or the text's end, and at `&` or `#` in a query", () => {
    expect(plainValueEnd("v1234 x", 0, false)).toBe(5);
    expect(plainValueEnd("v1234,x", 0, false)).toBe(5);
    expect(plainValueEnd("v1234", 0, false)).toBe(5);
    expect(plainValueEnd("v", 0, false)).toBe(1);
    expect(plainValueEnd("v12&x=1", 0, false)).toBe(7);
    expect(plainValueEnd("v12&x=1", 0, true)).toBe(3);
  });

  it("leaves a value whose last character trails, or that runs past its bound, to readValue", () => {
    for (const text of ["v1. ", 'v1" ', "v1) ", "(v1) ", "v1\\ "])
      expect(plainValueEnd(text, 0, false)).toBe(-1);
    expect(plainValueEnd(`${"v".repeat(MAX_PLAIN_VALUE)} `, 0, false)).toBe(MAX_PLAIN_VALUE);
    expect(plainValueEnd(`${"v".repeat(MAX_PLAIN_VALUE + 1)} `, 0, false)).toBe(-1);
  });
});

describe("quotedValueEnd", () => {
  it("finds a short pair value's closing quote", () => {
    expect(quotedValueEnd('"v1",', 0)).toBe(3);
    expect(quotedValueEnd('"",', 0)).toBe(1);
    expect(quotedValueEnd(`"${"v".repeat(64)}"`, 0)).toBe(65);
  });

  it("leaves an escape, a line break, a long or an unclosed value to readValue", () => {
    for (const text of ['"v\\"1"', '"v\n1"', '"v\r1"', '"v1', `"${"v".repeat(65)}"`])
      expect(quotedValueEnd(text, 0)).toBe(-1);
  });
});
