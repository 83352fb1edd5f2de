import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isKeyChar } from "../char-classes.js";
import type { RedactionContext } from "../redaction-context.js";
import { comparedAnswer, generalRead } from "./compared-reads.js";
import { keyPatterns, MAX_FLAG_KEY } from "./key-candidates.js";
import { readPlain } from "./plain-assignments.js";

const contextOf = (): RedactionContext => ({ replacement: "[REDACTED]", steps: 0 });
const char = (code: number): string => String.fromCharCode(code);

// What goes before a flag's dash (a sigil, a path separator, `?` and `&` change readAssignment's
// answer), its key, what goes between the key and its value, the value and what ends it.
const LEAD = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("", " ", "\n", "'", '"', "(") },
  { weight: 2, arbitrary: fc.constantFrom("$", "%", "/", "\\", "?", "&", ":") },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 127 }).map(char) },
);
const KEY = fc.constantFrom(
  "-token",
  "--token",
  "--api-key",
  "-pwd",
  "--password",
  "--tokens",
  "--x.token.",
  "-Authorization",
  `--${"a".repeat(MAX_FLAG_KEY)}-token`,
);
const GAP = fc.constantFrom(" ", "  ", "\t", " \t", "", "=", " =", ": ", '" ', "\\ ");
const FIRST = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(..."vcZ19eMx") },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 127 }).map(char) },
  { weight: 1, arbitrary: fc.constantFrom("Bearer ", "bearer", "Token x", "$X", "~/", "//", "'v1'", '"v1"') },
);
const BODY_CHAR = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(..."abcxyzABCXYZ0189_-+/=~") },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map(char) },
  { weight: 1, arbitrary: fc.constantFrom(..." \t\n\r,;&#.\"'`\\()[]{}<>!?\u00a0\u2028") },
);
const BODY = fc.oneof(
  { weight: 3, arbitrary: fc.array(BODY_CHAR, { maxLength: 8 }) },
  { weight: 1, arbitrary: fc.array(BODY_CHAR, { minLength: 24, maxLength: 40 }) },
);
const END = fc.constantFrom("", " ", "\n", ",", ";", "&", "'", ".", ")", "\\", " --next");
const FLAG = fc
  .tuple(
    LEAD,
    KEY,
    GAP,
    FIRST,
    BODY.map((chars) => chars.join("")),
    END,
  )
  .map((parts) => parts.join(""));

// The end of the run of key characters after a flag's dash: the word end the flag pass passes for
// a one-word key, from which readAssignment reads the key on.
const keyRunEnd = (text: string, dash: number): number => {
  let end = dash + 1;
  while (end < text.length && isKeyChar(text.charCodeAt(end))) end += 1;
  return end;
};

describe("readPlain from a flag's dash", () => {
  it("reads `--token value` as a flag's assignment with its value", () => {
    expect(readPlain("run --token v1234 --x", 4, 11, MAX_FLAG_KEY, contextOf(), true)).toMatchObject({
      key: "--token",
      form: "flag",
      flag: true,
      value: { start: 12, end: 17, text: "v1234", quoted: false },
    });
  });

  it("leaves other shapes to the general readers, counting nothing", () => {
    for (const text of [
      "--token=v1",
      "--token Bearer x",
      "--token 'v1'",
      "$--token v1",
      "/--token v1",
      "--token v1.",
    ]) {
      const context = contextOf();
      expect(readPlain(text, text.indexOf("-"), text.indexOf("n") + 1, MAX_FLAG_KEY, context, true)).toBe(
        null,
      );
      expect(context.steps).toBe(0);
    }
  });

  it("answers as readAssignment and readValue do from the dash, and counts the same work", () => {
    let read = 0;
    fc.assert(
      fc.property(fc.array(FLAG, { minLength: 1, maxLength: 6 }), (flags) => {
        const text = flags.join("");
        const { flagCandidate } = keyPatterns();
        flagCandidate.lastIndex = 0;
        while (flagCandidate.test(text)) {
          const dash = flagCandidate.lastIndex - 1;
          const wordEnd = keyRunEnd(text, dash);
          const context = contextOf();
          const plain = readPlain(text, dash, wordEnd, MAX_FLAG_KEY, context, true);
          flagCandidate.lastIndex = dash + 1;
          const general = () => generalRead(text, dash, wordEnd, MAX_FLAG_KEY);
          const { branch, mismatch } = comparedAnswer(plain, context.steps, general, { text, dash });
          expect(mismatch).toBeNull();
          if (branch !== null && branch !== "no secret") read += 1;
        }
      }),
      { numRuns: 3000 },
    );
    expect(read).toBeGreaterThan(300);
  });
});
