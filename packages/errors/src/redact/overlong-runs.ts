import { isWhitespace } from "./char-classes.js";
import type { RedactionContext } from "./redaction-context.js";
import { classMembers, VALUE_END_CHARS } from "./value-chars.js";

// Any character but one that ends an unquoted value (whitespace, `,`, `;`).
const NOT_VALUE_END = `[^${classMembers(VALUE_END_CHARS)}]`;

// A block's worth of characters that end no value, read from where it is set to start.
const blockReads = new Map<number, RegExp>();
const blockRead = (block: number): RegExp => {
  let read = blockReads.get(block);
  if (read === undefined) {
    read = new RegExp(`${NOT_VALUE_END}{0,${block}}`, "y");
    blockReads.set(block, read);
  }
  return read;
};

/** A stretch `[start, end)` of a text without a value end, longer than a credential. */
export interface Run {
  readonly start: number;
  readonly end: number;
}

/**
 * The runs of more than `minLength` characters without whitespace, `,` or `;`: where a value read
 * from a key would run past its bound. Any run that long contains a whole block of `minLength / 2`
 * characters, and a block with an end in it (most of them, in text a person reads) is settled by
 * one native read of at most a block, which stops at the first end. A block without one is read
 * on by native searches, one per end character, each remembered until passed: a run costs a few
 * such searches, not a read of each character by the engine's slower class test. Reading every
 * block by those searches instead cost a text whose ends are all spaces a whole-text search per
 * end character it lacks (`\v`, `,`), a megabyte's millisecond.
 */
export function findOverlongRuns(text: string, minLength: number, context: RedactionContext): Run[] {
  const runs: Run[] = [];
  if (text.length <= minLength) return runs;
  // Where each end character next occurs at or after the last search; -1 when it never does.
  const next = VALUE_END_CHARS.map(() => -2);
  const nextEnd = (from: number): number => {
    let nearest = text.length;
    for (let index = 0; index < next.length; index += 1) {
      let found = next[index] as number;
      if (found !== -1 && found < from) {
        found = text.indexOf(VALUE_END_CHARS[index] as string, from);
        next[index] = found;
      }
      if (found !== -1 && found < nearest) nearest = found;
    }
    return nearest;
  };
  const block = Math.floor((minLength + 1) / 2);
  let settledUpTo = 0;
  for (let blockStart = 0; blockStart + block <= text.length; blockStart += block) {
    if (blockStart < settledUpTo) continue;
    context.steps += 1;
    const read = blockRead(block);
    read.lastIndex = blockStart;
    read.test(text);
    if (read.lastIndex < blockStart + block) continue;
    const end = nextEnd(blockStart + block);
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
