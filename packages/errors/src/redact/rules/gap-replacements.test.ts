import { describe, expect, it } from "vitest";
import { Rewriter } from "../rewriter.js";
import { GapReplacements } from "./gap-replacements.js";

/** Each `=value` of `text`: where it starts and ends, and the text since the value before. */
function valuesOf(text: string): { start: number; end: number; gap: string }[] {
  const values: { start: number; end: number; gap: string }[] = [];
  let previousEnd = 0;
  for (const match of text.matchAll(/=(\w+)/g)) {
    const start = (match.index as number) + 1;
    const end = start + (match[1] as string).length;
    values.push({ start, end, gap: text.slice(previousEnd, start) });
    previousEnd = end;
  }
  return values;
}

describe("GapReplacements", () => {
  it("writes what replacing each redacted value alone writes, stretches and all", () => {
    const text = "k=1;k=22;k=333;k=4;x=55;x=6;x=7;k=88 k=9";
    const values = valuesOf(text);
    // Kept values, a change of gap, and a value whose gap the run did not compare.
    const secret = [true, true, true, false, true, true, true, true, true, true];
    const uncompared = new Set([9]);
    for (const firstRedacted of [false, true]) {
      const batched = new Rewriter(text, "[R]");
      const alone = new Rewriter(text, "[R]");
      const replacements = new GapReplacements(batched, firstRedacted);
      for (const [index, value] of values.entries()) {
        const gap = uncompared.has(index) ? null : value.gap;
        replacements.judged(secret[index] as boolean, gap, value.start, value.end);
        if (secret[index]) alone.replace(value.start, value.end);
      }
      replacements.flush();
      expect(batched.replacements).toBe(alone.replacements);
      expect(batched.finish()).toBe(alone.finish());
    }
  });

  it("writes nothing for kept values, and nothing twice when flushed again", () => {
    const rewriter = new Rewriter("k=1;k=2", "[R]");
    const replacements = new GapReplacements(rewriter, true);
    replacements.judged(false, ";k=", 6, 7);
    replacements.flush();
    replacements.flush();
    expect(rewriter.finish()).toBe("k=1;k=2");
  });
});
