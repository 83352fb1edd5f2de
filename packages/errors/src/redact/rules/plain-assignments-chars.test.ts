import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { DOUBLE_QUOTE, isAlnum, isKeyChar, SINGLE_QUOTE } from "../char-classes.js";
import { mayStartScheme, SCHEME_NAMES } from "./assignment-chars.js";
import { comparedRead, generalRead } from "./compared-reads.js";

// Every code unit at each place the fast path decides on: where it answers, it answers as the
// general readers do (counted steps included), and it declines exactly where their answer depends
// on that character. Failures are collected, not asserted one by one: 65536 asserts cost seconds.
const CODE_UNITS = Array.from({ length: 0x10000 }, (_, code) => code);
const KEY = "token";

interface Probe {
  readonly text: string;
  readonly wordStart: number;
}
/** The code units whose probes the fast path answers; every answer is the general readers'. */
function answeredBy(probeOf: (char: string) => Probe): Set<number> {
  const answered = new Set<number>();
  const mismatches: unknown[] = [];
  for (const code of CODE_UNITS) {
    const { text, wordStart } = probeOf(String.fromCharCode(code));
    const { branch, mismatch } = comparedRead(text, wordStart, wordStart + KEY.length);
    if (mismatch !== null && mismatches.length < 5) mismatches.push(mismatch);
    if (branch !== null) answered.add(code);
  }
  expect(mismatches).toEqual([]);
  return answered;
}
const codesWhere = (test: (code: number) => boolean): Set<number> => new Set(CODE_UNITS.filter(test));
const generalValueOf = ({ text, wordStart }: Probe) =>
  generalRead(text, wordStart, wordStart + KEY.length).value;

describe("readPlainAssignment, at every code unit", () => {
  for (const lead of ["", "?"]) {
    const where = lead === "" ? "outside a query" : "in a query";
    it(`ends a value where readValue does, ${where}`, () => {
      const answered = answeredBy((char) => ({ text: `${lead}${KEY}=v${char}w `, wordStart: lead.length }));
      // Each answers: `v` alone, when the character ends it, or `v…w`.
      expect(answered.size).toBe(CODE_UNITS.length);
    });

    it(`leaves a value whose last character trails to readValue, ${where}`, () => {
      const probeOf = (char: string): Probe => ({ text: `${lead}${KEY}=vw${char} `, wordStart: lead.length });
      const answered = answeredBy(probeOf);
      // It answers exactly where readValue keeps the value's last character.
      const kept = codesWhere((code) => {
        const value = generalValueOf(probeOf(String.fromCharCode(code)));
        return value !== null && value.end === value.readEnd - 1;
      });
      expect(answered).toEqual(kept);
    });
  }

  it("starts a plain value only at a letter or digit that starts no scheme", () => {
    // Other first characters are left to the general readers by choice: rare, and many of them
    // (quotes, `$`, `{`, `/`, `~`, `=`, `>`, blanks) are readAssignment's or readValue's decisions.
    const answered = answeredBy((char) => ({ text: `${KEY}: ${char}1 `, wordStart: 0 }));
    // A blank there is the separator's: the value is `1`.
    const blank = (code: number): boolean => code === 32 || code === 9;
    expect(answered).toEqual(codesWhere((code) => blank(code) || (isAlnum(code) && !mayStartScheme(code))));
    // Each scheme read after its first character, the way readAssignment reads it.
    for (const name of SCHEME_NAMES) {
      for (const first of [name[0]?.toLowerCase(), name[0]?.toUpperCase()]) {
        const text = `${KEY}: ${first}${name.slice(1)} x1 `;
        expect(comparedRead(text, 0, KEY.length)).toEqual({ branch: null, mismatch: null });
        expect(generalRead(text, 0, KEY.length)).toMatchObject({ form: "after-scheme" });
      }
    }
  });

  it("reads a key only where nothing before it changes readAssignment's answer", () => {
    // `=` and `:` right after the key: readAssignment's rules before a key tell the two apart.
    const suffixes = [`${KEY}=v1 `, `${KEY}:v1 `];
    // The neutral reading, a blank before the key; `?` and `&` make it a query's, same otherwise.
    const neutral = suffixes.map((suffix) => ({
      ...generalRead(` ${suffix}`, 1, 1 + KEY.length),
      inQuery: false,
    }));
    const changes = (char: string): boolean =>
      suffixes.some(
        (suffix, index) =>
          !isDeepStrictEqual(
            { ...generalRead(`${char}${suffix}`, 1, 1 + KEY.length), inQuery: false },
            neutral[index],
          ),
      );
    const declined = new Set<number>();
    for (const suffix of suffixes) {
      const answered = answeredBy((char) => ({ text: `${char}${suffix}`, wordStart: 1 }));
      for (const code of CODE_UNITS) if (!answered.has(code)) declined.add(code);
    }
    // A quote before the key makes a JSON pair's, which these suffixes are not: declined, read below.
    const quotes = [DOUBLE_QUOTE, SINGLE_QUOTE];
    expect(declined).toEqual(
      codesWhere((code) => quotes.includes(code) || changes(String.fromCharCode(code))),
    );
    for (const quote of ['"', "'"])
      expect(comparedRead(`${quote}${KEY}${quote}: "v1",`, 1, 1 + KEY.length)).toEqual({
        branch: "quoted",
        mismatch: null,
      });
  });

  it("reads the separator by hand where its patterns would: a quote, blanks, `:` or `=`", () => {
    // Past the key's last key character; every answer is the readers', and it declines only where
    // no separator follows, so a hand check narrower than the patterns' start fails here.
    const separator = (code: number): boolean => code === 58 || code === 61;
    const blank = (code: number): boolean => code === 32 || code === 9;
    const quote = (code: number): boolean => code === DOUBLE_QUOTE || code === SINGLE_QUOTE;
    expect(answeredBy((char) => ({ text: `${KEY}${char}v1 `, wordStart: 0 }))).toEqual(codesWhere(separator));
    // A key character makes a longer key (`token_`) before the `=`: read, or told it names no secret.
    expect(answeredBy((char) => ({ text: `${KEY}${char}=v1 `, wordStart: 0 }))).toEqual(
      codesWhere((code) => blank(code) || isKeyChar(code)),
    );
    // In a pair, the key's closing quote first, either kind.
    expect(answeredBy((char) => ({ text: `"${KEY}${char}: "v1",`, wordStart: 1 }))).toEqual(
      codesWhere(quote),
    );
  });

  it("tells a key that names no secret no assignment, as readAssignment does, whatever its value", () => {
    // `tokenizer` names none: before it the same characters as before `token` leave it to the readers.
    const answeredFor = (key: string) => {
      const answered = new Set<number>();
      for (const suffix of ["=v1 ", ": $X "]) {
        for (const code of answeredBy((char) => ({ text: `${char}${key}${suffix}`, wordStart: 1 })))
          answered.add(code);
      }
      return answered;
    };
    const noSecret = answeredFor(`${KEY}izer`);
    expect(noSecret).toEqual(answeredFor(KEY));
    expect(comparedRead(" tokenizer: $X ", 1, 1 + KEY.length)).toEqual({
      branch: "no secret",
      mismatch: null,
    });
  });

  it("opens a JSON pair's value only at a double quote", () => {
    // Any other first character leaves the pair to the general readers (a single quote among them).
    const answered = answeredBy((char) => ({ text: `{"${KEY}": ${char}v1",`, wordStart: 2 }));
    expect(answered).toEqual(codesWhere((code) => code === DOUBLE_QUOTE));
  });

  it("reads a JSON pair's value as readValue does, leaving escapes and line ends to it", () => {
    const answered = answeredBy((char) => ({ text: `{"${KEY}": "v${char}w",`, wordStart: 2 }));
    // A backslash escapes (readValue counts them); a line end stops a quoted value unclosed.
    expect(answered).toEqual(codesWhere((code) => code !== 92 && code !== 10 && code !== 13));
  });

  it("counts a query's `key` a credential, and its steps, as readAssignment does", () => {
    // The fast path answers each as the general readers do: the kind, the value, the steps.
    const reads: [text: string, wordStart: number, wordEnd: number, branch: string | null][] = [
      ["?key=v1&", 1, 4, "query"],
      ["&key=v1#", 1, 4, "query"],
      ["&KEY=1", 1, 4, "query"],
      ["?password=v1&", 1, 9, "query"],
      ["?api_key=v1&", 1, 4, "query"],
      // Outside a query `key` names no secret: no assignment, told without reading the value.
      [" key=v1 ", 1, 4, "no secret"],
    ];
    for (const [text, wordStart, wordEnd, branch] of reads)
      expect(comparedRead(text, wordStart, wordEnd)).toEqual({ branch, mismatch: null });
  });
});
