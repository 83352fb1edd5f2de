import { describe, expect, it } from "vitest";
import type { RedactionContext } from "../redaction-context.js";
import { MAX_KEY_SIDE } from "./key-candidates.js";
import { plainKeyStart } from "./plain-assignments.js";
import { keyStartFromPlain, readAssignment } from "./read-assignment.js";

const contextOf = (): RedactionContext => ({ replacement: "[REDACTED]", steps: 0 });
const WORD = "token";

/** readAssignment's answer and counted steps for the word in `text`, told plainKeyStart's answer or not. */
function readWith(text: string, hinted: boolean) {
  const wordStart = text.lastIndexOf(WORD);
  const plainStart = hinted ? plainKeyStart(text, wordStart) : -1;
  const context = contextOf();
  const answer = readAssignment(text, wordStart, wordStart + WORD.length, MAX_KEY_SIDE, context, plainStart);
  return { answer, steps: context.steps, plainStart };
}

describe("keyStartFromPlain", () => {
  it("is plainKeyStart's answer, but after a line break or tab written out", () => {
    expect(keyStartFromPlain("x_token", 0, 2)).toBe(0);
    expect(keyStartFromPlain("\\ntoken", 1, 2)).toBe(2);
    expect(keyStartFromPlain("\\rx_token", 1, 4)).toBe(2);
    expect(keyStartFromPlain("\\qx_token", 1, 4)).toBe(1);
    // The word's own first letter after a backslash starts the key, as readAssignment reads it.
    expect(keyStartFromPlain("\\token", 1, 1)).toBe(1);
  });

  it("spares readAssignment nothing but its reading: the same answer and steps, every code unit", () => {
    const mismatches: unknown[] = [];
    let hinted = 0;
    for (let code = 0; code < 0x10000; code += 1) {
      const char = String.fromCharCode(code);
      for (const text of [
        `${char}${WORD}=v1 `,
        `${char}n${WORD}: v1 `,
        `\\${char}${WORD} v1abc `,
        `a${char}_${WORD}="v1"`,
        `/${char}${WORD}:x `,
      ]) {
        const plain = readWith(text, true);
        if (plain.plainStart === -1) continue;
        hinted += 1;
        const { answer, steps } = readWith(text, false);
        if (mismatches.length < 5 && JSON.stringify(plain.answer) !== JSON.stringify(answer))
          mismatches.push({ text, hinted: plain.answer, general: answer });
        if (mismatches.length < 5 && plain.steps !== steps)
          mismatches.push({ text, steps: [plain.steps, steps] });
      }
    }
    expect(mismatches).toEqual([]);
    expect(hinted).toBeGreaterThan(0x10000);
  });
});
