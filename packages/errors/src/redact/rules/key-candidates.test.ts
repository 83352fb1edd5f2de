import { describe, expect, it } from "vitest";
import { redactSecrets } from "../redact-secrets.js";
import { keyPatterns, mayFollowKeyWord, mayStartSecondWord } from "./key-candidates.js";

describe("mayStartSecondWord", () => {
  it("is true for the first letter of a second word, in either case", () => {
    for (const letter of ["k", "K", "s", "S"]) expect(mayStartSecondWord(letter.charCodeAt(0))).toBe(true);
  });

  it("is false for what starts most flags' values, and past the text's end", () => {
    for (const start of ["v", "1", "-", "[", '"'])
      expect(mayStartSecondWord(start.charCodeAt(0))).toBe(false);
    expect(mayStartSecondWord("".charCodeAt(0))).toBe(false);
  });

  it("lets a flag's two-word key through to its value", () => {
    expect(redactSecrets("run --secret key s3cr3t-value --api KEY abc123def")).toBe(
      "run --secret key [REDACTED] --api KEY [REDACTED]",
    );
  });
});

describe("mayFollowKeyWord", () => {
  // After `token`, a character, or blanks and a character, then a credential's worth of `v`s: the
  // pattern's look-ahead reads no further than that.
  const suffixes = (code: number): string[] => {
    const char = String.fromCharCode(code);
    return [`${char}vvvvvvvv`, ` ${char}vvvvvvvv`, `\t  ${char}vvvvvvvv`, `${char}:vvvvvvvv`];
  };
  const patternHolds = (text: string): boolean => {
    const { keyCandidateAt } = keyPatterns();
    keyCandidateAt.lastIndex = 1;
    return keyCandidateAt.test(text);
  };

  it("is false only where keyCandidate's look-ahead fails, at every code unit", () => {
    const wronglyRuledOut: string[] = [];
    for (let code = 0; code <= 0xffff; code += 1) {
      for (const suffix of suffixes(code)) {
        const text = ` token${suffix}`;
        if (!mayFollowKeyWord(text, 6) && patternHolds(text)) wronglyRuledOut.push(text);
      }
    }
    expect(wronglyRuledOut).toEqual([]);
  });

  it("tells a value a flag's pass redacted, and the text's end, without the pattern", () => {
    expect(mayFollowKeyWord(" token [REDACTED] ", 6)).toBe(false);
    expect(mayFollowKeyWord(" token", 6)).toBe(false);
    expect(mayFollowKeyWord(" token  ", 6)).toBe(false);
    for (const text of [" token=x", " token: x", ' token": "x"', " token abcdef1", " token ~/abc", " tokens"])
      expect(mayFollowKeyWord(text, 6)).toBe(true);
  });
});
