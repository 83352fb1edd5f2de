import { describe, expect, it } from "vitest";
import { endsUnquoted, isTrailingPunctuation } from "./read-value.js";
import { BRACKETS, QUERY_VALUE_END_CHARS, TRAILING_CHARS, VALUE_END_CHARS } from "./value-chars.js";

// readValue's per-character tests are written out as comparisons; the patterns built from the
// lists read values as they do only while the two say the same of every code unit.
const CODE_UNITS = Array.from({ length: 0x10000 }, (_, code) => code);
const codesOf = (chars: readonly string[]): number[] =>
  chars.map((char) => char.charCodeAt(0)).sort((a, b) => a - b);

describe("the characters readValue decides on", () => {
  it("ends an unquoted value at VALUE_END_CHARS, and in a query at QUERY_VALUE_END_CHARS", () => {
    expect(CODE_UNITS.filter((code) => endsUnquoted(code, false))).toEqual(codesOf(VALUE_END_CHARS));
    expect(CODE_UNITS.filter((code) => endsUnquoted(code, true))).toEqual(codesOf(QUERY_VALUE_END_CHARS));
  });

  it("trims TRAILING_CHARS always, and a closing bracket unless the value opened it", () => {
    const closers = BRACKETS.map(([closer]) => closer);
    expect(CODE_UNITS.filter((code) => isTrailingPunctuation(code, "v"))).toEqual(
      codesOf([...TRAILING_CHARS, ...closers]),
    );
    const openers = BRACKETS.map(([, opener]) => opener).join("");
    expect(CODE_UNITS.filter((code) => isTrailingPunctuation(code, `v${openers}`))).toEqual(
      codesOf(TRAILING_CHARS),
    );
    for (const [closer, opener] of BRACKETS)
      expect(isTrailingPunctuation(closer.charCodeAt(0), `v${opener}`)).toBe(false);
  });
});
