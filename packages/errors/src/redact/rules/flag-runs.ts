import { isAsciiLetter } from "../char-classes.js";
import type { RedactionContext } from "../redaction-context.js";
import type { Rewriter } from "../rewriter.js";
import { sameCharsAt, sameCharsBefore } from "../same-chars.js";
import { isSecretValue, namesASecret } from "../secret-values.js";
import { GapReplacements } from "./gap-replacements.js";
import { mayStartSecondWord } from "./key-candidates.js";
import { holdsLetterRun, type RunEnd, readValueEnd, WORD_LETTERS } from "./key-runs.js";
import type { PlainAssignment } from "./plain-assignments.js";
import { RunValues } from "./run-values.js";

// Where the flag runs compare, read by their tests too.
export { sameCharsAt, sameCharsBefore };

// How far past a flag's value the same flag may start again: past a blank, or past other flags and
// their values (`-H x1 `) that hold no sensitive word.
export const MAX_FLAG_GAP = 64;
const DASH = 45;

/**
 * Where the flag at `dash` starts again after a value ending at `valueEnd`: its key and the blanks up
 * to its value (at `valueStart`) again, after the same character as before it, within MAX_FLAG_GAP
 * characters that hold no WORD_LETTERS ASCII letters in a row; or -1. Every sensitive word holds such
 * a run (the flag search is caseless without the `u` flag, so no other character matches one), and
 * the characters before the dash found hold no key character: no other dash in between starts a flag
 * the flag pass would judge, so the first it finds after the value is that one.
 */
export function sameFlagAfter(text: string, dash: number, valueStart: number, valueEnd: number): number {
  const before = text.charCodeAt(dash - 1);
  const length = valueStart - dash;
  const stop = Math.min(text.length, valueEnd + MAX_FLAG_GAP);
  let letters = 0;
  for (let index = valueEnd; index < stop; index += 1) {
    const code = text.charCodeAt(index);
    if (code === DASH && text.charCodeAt(index - 1) === before && sameCharsAt(text, dash, index, length))
      return index;
    letters = isAsciiLetter(code) ? letters + 1 : 0;
    if (letters === WORD_LETTERS) return -1;
  }
  return -1;
}

/**
 * The flag pass's decisions on the flags that follow `first` (read by readPlain from its dash at
 * `dash`, its value redacted when `redacted`), each the same flag with the same blanks up to its
 * value and the same character before it, found by sameFlagAfter after the value before it
 * (`--token v1 --token v2 …`, `--token v1 -H x2 --token v3 …`): each is what readPlain reads there
 * and judged as it would be, in one loop that reads only the values and the gaps, not one search,
 * key read and judgement per flag. Null when no flag follows so.
 *
 * It stops before a flag whose reading or judgement could differ: a value the fast path leaves to
 * the general reader, one whose first letter may make the key two words (`--secret key v`), one
 * ending in `:`, or a kept value holding a sensitive word's start (the search would judge a dash in
 * it before the next flag).
 */
export function judgeFlagsInRun(
  text: string,
  first: PlainAssignment,
  dash: number,
  redacted: boolean,
  rewriter: Rewriter,
  context: RedactionContext,
): RunEnd | null {
  const { value, kind, inQuery } = first;
  if (dash === 0 || mayStartSecondWord(text.charCodeAt(value.start))) return null;
  let nextDash = sameFlagAfter(text, dash, value.start, value.end);
  if (nextDash === -1 || (!redacted && holdsLetterRun(text, value.start, value.end))) return null;
  const flagLength = value.start - dash;
  // The blanks between the key and its value.
  const blanks = value.start - first.keyEnd;
  let valueEnd = value.end;
  // The text between the last two values, once it was the same twice: a run repeats it, told by one
  // native comparison per flag. Until then, the characters before the last flag found (the flag
  // itself is the same each time): where they ended and how many.
  let gap = "";
  let lastTailEnd = -1;
  let lastTailLength = -1;
  let keys = 0;
  let resumeAt = 0;
  let valueStart = 0;
  const replacements = new GapReplacements(rewriter, redacted);
  const values = new RunValues(value.text, false);
  for (;;) {
    let start: number;
    let afterGap: boolean;
    if (gap !== "" && text.startsWith(gap, valueEnd)) {
      start = valueEnd + gap.length;
      afterGap = true;
    } else {
      if (nextDash === -1) nextDash = sameFlagAfter(text, dash, value.start, valueEnd);
      if (nextDash === -1) break;
      start = nextDash + flagLength;
      const tailLength = nextDash - valueEnd;
      afterGap = tailLength === lastTailLength && sameCharsBefore(text, lastTailEnd, nextDash, tailLength);
      gap = afterGap ? text.slice(valueEnd, start) : "";
      lastTailEnd = nextDash;
      lastTailLength = tailLength;
      nextDash = -1;
    }
    if (mayStartSecondWord(text.charCodeAt(start))) break;
    const end = readValueEnd(text, start, false, inQuery);
    if (end === -1) break;
    if (!values.take(text, start, end)) break;
    const { span } = values;
    // A flag is command-like: a value that names a secret (`app-token`) is kept.
    const secret = isSecretValue(kind, "flag", span, context.replacement) && !namesASecret(span.text);
    if (!secret && holdsLetterRun(text, start, end)) break;
    // As the flag pass counts a candidate and readPlain its read, with the gap before the flag.
    context.steps += 2 + end - valueEnd + 3;
    replacements.judged(secret, afterGap ? gap : null, start, end);
    keys += 1;
    resumeAt = secret ? end : start - blanks;
    valueStart = start;
    valueEnd = end;
  }
  replacements.flush();
  return keys === 0 ? null : { keys, resumeAt, examinedUpTo: resumeAt, valueStart };
}
