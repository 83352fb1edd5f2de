import { isWhitespace } from "./char-classes.js";
import type { RedactionContext } from "./redaction-context.js";

// The characters that end an unquoted value (as in unquoted-value-ends.ts): whitespace, `,`, `;`.
const VALUE_END = /[ \t\n\v\f\r\u00a0\u2028\u2029,;]/g;

/** A stretch `[start, end)` of a text without a value end, longer than a credential. */
export interface Run {
  readonly start: number;
  readonly end: number;
}

/**
 * The runs of more than `minLength` characters without whitespace, `,` or `;`: where a value read
 * from a key would run past its bound. Found by a native search for the next end, remembered until
 * passed, so a text without such a run costs a search per `minLength / 2` characters that stops
 * at the first end: any run that long contains a whole block of that size, and a block with an end
 * in it (most of them, in text a person reads) is settled by the first end found. One search for
 * any end, not one per end character: a character the text never holds (`\v`, `\u2028`) cost a
 * search of the whole text each, a megabyte's millisecond.
 */
export function findOverlongRuns(text: string, minLength: number, context: RedactionContext): Run[] {
  const runs: Run[] = [];
  if (text.length <= minLength) return runs;
  // Where the first end at or after the last search's start is: the text's length when none.
  let found = -1;
  const nextEnd = (from: number): number => {
    if (found < from) {
      VALUE_END.lastIndex = from;
      found = VALUE_END.test(text) ? VALUE_END.lastIndex - 1 : text.length;
    }
    return found;
  };
  const block = Math.floor((minLength + 1) / 2);
  let settledUpTo = 0;
  for (let blockStart = 0; blockStart + block <= text.length; blockStart += block) {
    if (blockStart < settledUpTo) continue;
    context.steps += 1;
    const end = nextEnd(blockStart);
    if (end < blockStart + block) continue;
    // The block holds no end: the run reaches back to the last end before it, which lies in the
    // previous block (or that block was part of a run already settled).
    let start = blockStart;
    while (start > settledUpTo && !isValueEnd(text.charCodeAt(start - 1))) start -= 1;
    context.steps += blockStart - start + Math.ceil((end - blockStart) / block);
    if (end - start > minLength) runs.push({ start, end });
    settledUpTo = end;
  }
  return runs;
}

const isValueEnd = (code: number): boolean => isWhitespace(code) || code === 44 || code === 59;

// Quotes and a sentence's end after a run belong to the text around it.
const isTrailing = (code: number): boolean => code === 46 || code === 34 || code === 39 || code === 96;

/** Where a value from `start` to the end of its run `runEnd` ends, without trailing quotes or dots. */
export function overlongValueEnd(text: string, start: number, runEnd: number): number {
  let end = runEnd;
  while (end > start && isTrailing(text.charCodeAt(end - 1))) end -= 1;
  return end;
}
