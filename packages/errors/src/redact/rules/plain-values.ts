import { BACKSLASH, DOUBLE_QUOTE } from "../char-classes.js";
import { endsUnquoted, isTrailingPunctuation, READ_BY_HAND } from "../read-value.js";

// The ends of the values the plain-assignment fast path reads, by hand: a sticky pattern per value
// cost a dense run of keys (`token: v<i>`) a call into the engine per key. The tests are readValue's
// own (endsUnquoted, isTrailingPunctuation), which value-chars.test.ts holds to the lists it
// decides on; plain-assignments-chars.test.ts holds the fast path to readValue at every code unit.

// readValue reads at most READ_BY_HAND characters by hand, then searches on for the end, counting
// steps of its own: a shorter value is all the fast path takes.
export const MAX_PLAIN_VALUE = READ_BY_HAND - 1;
// A JSON pair's value after its opening quote: short, without a backslash or a line break (the
// general reader's escapes and ends), and its closing quote.
export const MAX_QUOTED_VALUE = 64;

/**
 * Where the plain value whose first character is at `start` ends: at the end that follows at most
 * MAX_PLAIN_VALUE characters, or -1 when it runs longer or its last character after the first
 * trails (a quote, a dot, a closing bracket, opened or not), which readValue judges.
 */
export function plainValueEnd(text: string, start: number, inQuery: boolean): number {
  const stop = Math.min(text.length, start + MAX_PLAIN_VALUE);
  let end = start + 1;
  while (end < stop && !endsUnquoted(text.charCodeAt(end), inQuery)) end += 1;
  if (end < text.length && !endsUnquoted(text.charCodeAt(end), inQuery)) return -1;
  return end > start + 1 && isTrailingPunctuation(text.charCodeAt(end - 1), "") ? -1 : end;
}

/**
 * Where the closing quote of the JSON pair's value whose opening quote is at `start` is, within
 * MAX_QUOTED_VALUE characters and before any backslash or line break, or -1.
 */
export function quotedValueEnd(text: string, start: number): number {
  const stop = Math.min(text.length, start + 1 + MAX_QUOTED_VALUE);
  let end = start + 1;
  for (; end < stop; end += 1) {
    const code = text.charCodeAt(end);
    if (code === DOUBLE_QUOTE || code === BACKSLASH || code === 10 || code === 13) break;
  }
  return text.charCodeAt(end) === DOUBLE_QUOTE ? end : -1;
}
