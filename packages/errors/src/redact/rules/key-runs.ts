import { isAlnum, isAsciiLetter, KEY_CHARS } from "../char-classes.js";
import { escapeForPattern } from "../pattern-source.js";
import type { RedactionContext } from "../redaction-context.js";
import type { Rewriter } from "../rewriter.js";
import { isSecretValue, namesASecret } from "../secret-values.js";
import {
  BRACKETS,
  classMembers,
  QUERY_VALUE_END_CHARS,
  TRAILING_CHARS,
  VALUE_END_CHARS,
} from "../value-chars.js";
import { mayStartScheme, SCHEME_NAMES } from "./assignment-chars.js";
import { GapReplacements } from "./gap-replacements.js";
import { MAX_KEY_SIDE } from "./key-candidates.js";
import type { PlainAssignment } from "./plain-assignments.js";
import { MAX_PLAIN_VALUE, MAX_QUOTED_VALUE, plainValueEnd, quotedValueEnd } from "./plain-values.js";
import { RunValues } from "./run-values.js";

// The most characters between a value and the next key of its run: `&`, a line break, `","`.
const MAX_TAIL = 8;
// Every sensitive word starts with this many ASCII letters (the search is caseless without the `u`
// flag, so no other character matches one): a stretch without such a run holds no word's start.
export const WORD_LETTERS = 3;

// Keys read by hand after the same gap before its pattern is built (unitPattern): a run of a few keys
// is cheaper read by hand than compiled for.
const KEYS_BEFORE_PATTERN = 8;
const SCHEME_FIRSTS = [...new Set(SCHEME_NAMES.map((name) => name.charAt(0)))].join("");
const TRAILING = classMembers([...TRAILING_CHARS, ...BRACKETS.map(([closer]) => closer), ":"]);

/**
 * The gap before a key's value (the end of the value before, the key, its separator) and the value,
 * a value as the run reads it by hand: plainValueEnd's from a first character that is a letter or
 * digit and starts no scheme, not ending in `:` (judgeKeysInRun); a pair's up to its closing quote
 * (quotedValueEnd). The match ends where the value does.
 */
export function unitPattern(gap: string, quoted: boolean, inQuery: boolean): RegExp {
  if (quoted) return new RegExp(`${escapeForPattern(gap)}[^"\\\\\\n\\r]{0,${MAX_QUOTED_VALUE}}(?=")`, "y");
  const ends = classMembers(inQuery ? QUERY_VALUE_END_CHARS : VALUE_END_CHARS);
  const first = `(?![${SCHEME_FIRSTS}${SCHEME_FIRSTS.toLowerCase()}])[A-Za-z0-9]`;
  const rest = `(?:[^${ends}]{0,${MAX_PLAIN_VALUE - 2}}[^${ends}${TRAILING}])?`;
  return new RegExp(`${escapeForPattern(gap)}${first}${rest}(?![^${ends}])`, "y");
}

/**
 * Where the key after a value ending at `valueEnd` starts when it is the key at `keyStart` again,
 * with the same separator up to its value (at `valueStart` after that key) and the same character
 * before it, past a few characters that are no key's (`&`, a line break, `","`); or -1. Read by hand,
 * with no string made: most keys start no run, and are told so for a few comparisons.
 */
export function sameKeyAfter(text: string, keyStart: number, valueStart: number, valueEnd: number): number {
  const stop = Math.min(text.length, valueEnd + MAX_TAIL);
  let nextKey = valueEnd;
  while (nextKey < stop && KEY_CHARS[text.charCodeAt(nextKey)] !== 1) nextKey += 1;
  if (nextKey === valueEnd || text.charCodeAt(nextKey - 1) !== text.charCodeAt(keyStart - 1)) return -1;
  for (let index = 0; index < valueStart - keyStart; index += 1) {
    if (text.charCodeAt(nextKey + index) !== text.charCodeAt(keyStart + index)) return -1;
  }
  return nextKey;
}

/**
 * The keys of a run (`&key=`, `\ntoken: `, `","token":"`): each the same key with the same separator
 * up to its value, after the same character (which decides with them what the key is), each found
 * right after the value before it, past a few characters that are no key's (`&`, a line break, `","`).
 */
export class KeysInRun {
  private readonly keyAndSeparatorLength: number;
  /**
   * The text between the value before the key `next` found last and that key's value: a run repeats
   * it, told by one native comparison per key.
   */
  gap = "";
  // The gap and value in one sticky match, once KEYS_BEFORE_PATTERN keys followed the same gap.
  private unit: RegExp | null = null;
  private keysAfterGap = 0;

  constructor(
    private readonly text: string,
    private readonly keyStart: number,
    private readonly valueStart: number,
    private readonly quoted: boolean,
    private readonly inQuery: boolean,
  ) {
    this.keyAndSeparatorLength = valueStart - keyStart;
  }

  /**
   * Where the value of the next key ends when the gap after a value ending at `valueEnd` is the last
   * one and the value one the run reads (unitPattern), told by one native match; else -1, and the
   * key is read by hand (next, then the value's reader).
   */
  nextValueEnd(valueEnd: number): number {
    const { unit } = this;
    if (unit === null) return -1;
    unit.lastIndex = valueEnd;
    return unit.test(this.text) ? unit.lastIndex : -1;
  }

  /** A key read by hand after the current gap: enough of them, and the rest are matched natively. */
  readByHand(): void {
    this.keysAfterGap += 1;
    if (this.keysAfterGap === KEYS_BEFORE_PATTERN)
      this.unit = unitPattern(this.gap, this.quoted, this.inQuery);
  }

  /** Where the next key of the run starts after a value ending at `valueEnd`, or -1. */
  next(valueEnd: number): number {
    const { text, gap } = this;
    if (gap !== "" && text.startsWith(gap, valueEnd))
      return valueEnd + gap.length - this.keyAndSeparatorLength;
    const keyStart = sameKeyAfter(text, this.keyStart, this.valueStart, valueEnd);
    if (keyStart === -1) return -1;
    this.gap = text.slice(valueEnd, keyStart + this.keyAndSeparatorLength);
    this.unit = null;
    this.keysAfterGap = 0;
    return keyStart;
  }
}

/**
 * Whether `[start, end)` of `text` holds WORD_LETTERS ASCII letters in a row, where a sensitive word
 * could start: a kept value without them leaves the key search nothing to find before the next key.
 */
export function holdsLetterRun(text: string, start: number, end: number): boolean {
  let letters = 0;
  for (let index = start; index < end; index += 1) {
    letters = isAsciiLetter(text.charCodeAt(index)) ? letters + 1 : 0;
    if (letters === WORD_LETTERS) return true;
  }
  return false;
}

/**
 * Where the value at `start` ends, read as readPlain reads it (unitPattern matches the same): a
 * pair's up to its closing quote; a plain value from a letter or a digit that starts no scheme, not
 * ending in `:` (keyCandidate may take `label:` for the next field's label); or -1.
 */
export function readValueEnd(text: string, start: number, quoted: boolean, inQuery: boolean): number {
  if (quoted) return quotedValueEnd(text, start - 1);
  const first = text.charCodeAt(start);
  if (!isAlnum(first) || mayStartScheme(first)) return -1;
  const end = plainValueEnd(text, start, inQuery);
  return end !== -1 && text.charCodeAt(end - 1) === 58 ? -1 : end;
}

/** Where the key pass resumes after a run, as after the run's last key judged one by one. */
export interface RunEnd {
  /** How many keys the run judged. */
  readonly keys: number;
  readonly resumeAt: number;
  readonly examinedUpTo: number;
  /** Where the last key's value starts, as readPlain reports it (at the opening quote of a pair). */
  readonly valueStart: number;
}

/**
 * The key pass's decisions on the keys that follow `first` (read by readPlain from `keyStart`, its
 * value redacted when `redacted`) each right after the value before it, with the same key, the same
 * separator and the same character before (`key=1&key=2&…`, `token: v1\ntoken: v2\n…`): each is
 * what readPlain reads there and judged as it would be, in one loop that reads only the values, not
 * one search, key read and judgement of the key per key. Null when no key follows so.
 *
 * It stops before a key whose judgement could differ: a value the fast path leaves to readValue, a
 * value ending in `:` (keyCandidate may then take it for a label), or a kept value holding a
 * sensitive word's start (the search would judge that word before the next key).
 */
export function judgeKeysInRun(
  text: string,
  first: PlainAssignment,
  keyStart: number,
  redacted: boolean,
  rewriter: Rewriter,
  context: RedactionContext,
): RunEnd | null {
  const { value } = first;
  // A key longer than a key side may be read otherwise from another of its words.
  if (keyStart === 0 || first.keyEnd - keyStart > MAX_KEY_SIDE) return null;
  if (sameKeyAfter(text, keyStart, value.start, value.end) === -1) return null;
  if (!redacted && holdsLetterRun(text, value.start, value.end)) return null;
  const { quoted } = value;
  const { kind, inQuery } = first;
  const keysInRun = new KeysInRun(text, keyStart, value.start, quoted, inQuery);
  const commandLike = !quoted && /^[a-z]+$/.test(first.key);
  const keyLength = first.keyEnd - keyStart;
  let valueEnd = value.end;
  let keys = 0;
  let resumeAt = 0;
  let examinedUpTo = 0;
  let valueStart = 0;
  const replacements = new GapReplacements(rewriter, redacted);
  const values = new RunValues(value.text, quoted);
  // From a key's end to its value's start: a pair's closing quote, the separator, blanks, a quote.
  const separatorLength = value.start - first.keyEnd;
  for (;;) {
    let end = keysInRun.nextValueEnd(valueEnd);
    let start: number;
    if (end !== -1) {
      start = valueEnd + keysInRun.gap.length;
    } else {
      const nextKey = keysInRun.next(valueEnd);
      if (nextKey === -1) break;
      start = nextKey + keyLength + separatorLength;
      end = readValueEnd(text, start, quoted, inQuery);
      if (end === -1) break;
      keysInRun.readByHand();
    }
    if (!values.take(text, start, end)) break;
    const { span } = values;
    const secret =
      isSecretValue(kind, "explicit", span, context.replacement) && !(commandLike && namesASecret(span.text));
    if (!secret && holdsLetterRun(text, start, end)) break;
    // As the key pass counts a candidate and readPlain its read, with the characters before the key.
    context.steps += 2 + end - valueEnd + (quoted ? 2 : 3);
    replacements.judged(secret, keysInRun.gap, start, end);
    keys += 1;
    resumeAt = secret ? end : start - separatorLength;
    examinedUpTo = resumeAt;
    valueStart = quoted ? start - 1 : start;
    valueEnd = end;
  }
  replacements.flush();
  return keys === 0 ? null : { keys, resumeAt, examinedUpTo, valueStart };
}
