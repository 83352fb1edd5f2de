import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RedactionContext } from "../redaction-context.js";
import { UnquotedValueEnds } from "../unquoted-value-ends.js";
import { readValue } from "../values.js";
import { readAssignment } from "./key-assignments.js";
import { keyPatterns, MAX_KEY_SIDE } from "./key-candidates.js";
import { readPlainAssignment } from "./plain-assignments.js";

const contextOf = (): RedactionContext => ({ replacement: "[REDACTED]", steps: 0 });

// What readAssignment and readValue read at each key candidate of `text`, and what
// readPlainAssignment reads where it answers, with the work each counts.
function readsAtCandidates(text: string) {
  const { keyCandidate } = keyPatterns();
  const reads: { general: unknown; plain: unknown }[] = [];
  keyCandidate.lastIndex = 0;
  for (let found = keyCandidate.exec(text); found !== null; found = keyCandidate.exec(text)) {
    const [start, end] = [found.index, keyCandidate.lastIndex];
    const plainContext = contextOf();
    const plain = readPlainAssignment(text, start, end, MAX_KEY_SIDE, plainContext);
    if (plain === null) continue;
    const generalContext = contextOf();
    const assignment = readAssignment(text, start, end, MAX_KEY_SIDE, generalContext);
    const value =
      "skipTo" in assignment
        ? null
        : readValue(
            text,
            assignment.valueStart,
            assignment.inQuery,
            generalContext,
            new UnquotedValueEnds(text),
          );
    reads.push({
      general: { ...assignment, value, steps: generalContext.steps },
      plain: { ...plain, steps: plainContext.steps },
    });
  }
  return reads;
}

const KEYS = [
  "token",
  "key",
  "pwd",
  "password",
  "api_key",
  "secret",
  "tokens",
  "auth",
  "Authorization",
  "x-token.",
];
const SEPARATORS = [
  "=",
  ":",
  " = ",
  ":\t",
  "==",
  ":=",
  "=>",
  "://",
  ": ",
  '":"',
  '": "',
  "':\"",
  '"=>"',
  '"="',
  '"\\:"',
];
// What goes just before a key: nothing, a quote (a JSON key), an escaped one, a blank.
const LEADS = ["", '"', "'", '\\"', " "];
// Every character class the readers treat apart (ends, quotes, brackets, sigils, scheme letters),
// and the words a few of their decisions read: schemes, a provider's own, a URL's slashes.
const PIECES = [
  ..."aZ09cvxbtdnsA .,;&#?\"'`\\()[]{}<>$%/~:=-_@*\t\n\r\u00a0\u2028é",
  "Bearer ",
  "Token ",
  "Splunk ",
  "//",
];
const word = (min: number, max: number) =>
  fc.array(fc.constantFrom(...PIECES), { minLength: min, maxLength: max }).map((pieces) => pieces.join(""));

describe("readPlainAssignment", () => {
  it("reads a plain `key=value` in one match", () => {
    const text = "token: v1234\nkey=12&";
    expect(readPlainAssignment(text, 0, 5, MAX_KEY_SIDE, contextOf())).toMatchObject({
      key: "token",
      form: "explicit",
      value: { start: 7, end: 12, text: "v1234" },
    });
    expect(readPlainAssignment(`?${text.slice(13)}`, 1, 4, MAX_KEY_SIDE, contextOf())).toMatchObject({
      kind: "credential",
      inQuery: true,
      value: { text: "12" },
    });
  });

  it('reads a JSON pair `"key": "value"` in one match', () => {
    const text = '{"token": "v1",';
    expect(readPlainAssignment(text, 2, 7, MAX_KEY_SIDE, contextOf())).toMatchObject({
      valueStart: 10,
      value: { start: 11, end: 13, text: "v1", quoted: true, readEnd: 14 },
    });
  });

  it("leaves other shapes to the general readers: a scheme, a quote, a trailing dot, a path", () => {
    for (const text of ["token: Bearer x", 'token="v1"', "token=v1.", "PWD=/home/a", "$token=v1", "token=="])
      expect(
        readPlainAssignment(text, text.indexOf(text.includes("PWD") ? "PWD" : "token"), 5, 64, contextOf()),
      ).toBe(null);
  });

  it("answers as readAssignment and readValue do, and counts the same work, wherever it answers", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            word(0, 2),
            fc.constantFrom(...LEADS),
            fc.constantFrom(...KEYS),
            fc.constantFrom(...SEPARATORS),
            word(0, 70),
          ),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        (parts) => {
          const text = parts.map((part) => part.join("")).join("");
          for (const { general, plain } of readsAtCandidates(text)) expect(plain).toEqual(general);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
