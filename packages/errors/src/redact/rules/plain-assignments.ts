import { DOUBLE_QUOTE, isAlnum, isBlank, isKeyChar, KEY_CHARS, SINGLE_QUOTE } from "../char-classes.js";
import { kindOfAssignedKey, mayNameAuthorization } from "../key-names.js";
import type { ValueSpan } from "../read-value.js";
import type { RedactionContext } from "../redaction-context.js";
import { COLON, isPathSeparator, isReferenceSigil, isSeparator, mayStartScheme } from "./assignment-chars.js";
import { MAX_KEY_SIDE } from "./key-candidates.js";
import { plainValueEnd, quotedValueEnd } from "./plain-values.js";
import type { Assignment, NotAnAssignment } from "./read-assignment.js";

/** An assignment read whole, with its value: what readAssignment and readValue give for it. */
export interface PlainAssignment extends Assignment {
  readonly value: ValueSpan;
}

// The fast path reads the characters the general readers decide on (value-chars.ts,
// assignment-chars.ts) with their own tests; plain-assignments-chars.test.ts holds it to the
// readers at every code unit.

// Before a key, these change what readAssignment decides: a key character (the key starts
// earlier), a reference's sigil, a path separator, a colon (an id's fields). A quote is a pair's,
// tested before this.
const isPlainBefore = (code: number): boolean =>
  !isKeyChar(code) && !isReferenceSigil(code) && !isPathSeparator(code) && code !== COLON;

/**
 * Where the separator after the key ending at `keyEnd` ends, or -1 without one: after the key's
 * closing quote when a quote opened it, blanks and a `:` or a `=`. Read by hand, as the value's
 * first character is (plainValueStart), not by a pattern: in prose most keys the key pass tries
 * have no separator (`token expired`), and a call into the engine to tell so cost typical text
 * more than the fast path saved it.
 */
function separatorEnd(text: string, keyEnd: number, quotedKey: boolean): number {
  let position = keyEnd;
  if (quotedKey) {
    const quote = text.charCodeAt(position);
    if (quote !== DOUBLE_QUOTE && quote !== SINGLE_QUOTE) return -1;
    position += 1;
  }
  while (isBlank(text.charCodeAt(position))) position += 1;
  return isSeparator(text.charCodeAt(position)) ? position + 1 : -1;
}

/**
 * Where the value after a separator ending at `position` starts, after blanks, or -1 where it is
 * none the fast path reads: a pair's opening quote, or a plain value's first character, a letter or
 * digit that starts none of SCHEME_NAMES (readAssignment tries a scheme there), so no quote,
 * escape, reference or path.
 */
function plainValueStart(text: string, position: number, quotedKey: boolean): number {
  let start = position;
  while (isBlank(text.charCodeAt(start))) start += 1;
  const first = text.charCodeAt(start);
  const plain = quotedKey ? first === DOUBLE_QUOTE : isAlnum(first) && !mayStartScheme(first);
  return plain ? start : -1;
}

/**
 * Where the key holding the sensitive word at `wordStart` starts, as readAssignment reads it back
 * (`OPENAI_API_KEY` for `KEY`), so the fast path can read a key that starts before its word; -1
 * where readAssignment's own rules decide: a run of key characters longer than a key side, a
 * flag's dash. A `\n` written out before the key (the `n` is none of it) starts the run after a
 * backslash, which readPlainAssignment leaves to readAssignment.
 */
export function plainKeyStart(text: string, wordStart: number): number {
  const leftLimit = Math.max(0, wordStart - MAX_KEY_SIDE);
  let keyStart = wordStart;
  while (keyStart > leftLimit && KEY_CHARS[text.charCodeAt(keyStart - 1)] === 1) keyStart -= 1;
  if (keyStart > 0 && KEY_CHARS[text.charCodeAt(keyStart - 1)] === 1) return -1;
  return text.charCodeAt(keyStart) === 45 ? -1 : keyStart;
}

/**
 * The commonest assignments, `key=value` or `key: value` with a short plain value and a JSON pair
 * `"key": "value"`, read in one pass by hand (plain-values.ts) instead of readAssignment's steps and
 * readValue's; and a key of that shape that names no secret (`tokens: 42`), told no assignment
 * without them. Null for any other shape (the caller reads it as before). Where it answers, it
 * answers as those two do and counts the same characters: a key starting at the sensitive word
 * (after a quote only in a pair), a separator, and a value that no scheme, quote, escape or
 * trailing character makes the general reader's.
 */
export function readPlainAssignment(
  text: string,
  wordStart: number,
  wordEnd: number,
  rightSide: number,
  context: RedactionContext,
): PlainAssignment | NotAnAssignment | null {
  return readPlain(text, wordStart, wordEnd, rightSide, context, false);
}

/**
 * readPlainAssignment from where a key starts; or, from a flag's dash (`flag`), the commonest flag,
 * `--token value` with a short plain value after blanks, read the same way: as readAssignment and
 * readValue read it from the dash, or null where they decide otherwise (a quote, a separator, a
 * scheme, a long value). One function for both: the key pass's loop pays for each call it makes
 * per candidate.
 */
export function readPlain(
  text: string,
  keyStart: number,
  wordEnd: number,
  rightSide: number,
  context: RedactionContext,
  flag: boolean,
): PlainAssignment | NotAnAssignment | null {
  const before = keyStart > 0 ? text.charCodeAt(keyStart - 1) : -1;
  // A quote opens a JSON pair's key, never a flag's.
  const quotedKey = !flag && (before === DOUBLE_QUOTE || before === SINGLE_QUOTE);
  if (keyStart > 0 && !quotedKey && !isPlainBefore(before)) return null;
  let keyEnd = wordEnd;
  const rightLimit = Math.min(text.length, wordEnd + rightSide);
  while (keyEnd < rightLimit && KEY_CHARS[text.charCodeAt(keyEnd)] === 1) keyEnd += 1;
  // A key too long: readAssignment's to skip.
  if (keyEnd === rightLimit) return null;
  // A flag's value follows blanks (plainValueStart reads past them); an assignment's, a separator.
  const afterSeparator = flag
    ? isBlank(text.charCodeAt(keyEnd))
      ? keyEnd
      : -1
    : separatorEnd(text, keyEnd, quotedKey);
  if (afterSeparator === -1) return null;
  const key = text.slice(keyStart, keyEnd);
  const inQuery = before === 63 || before === 38;
  // A key that ends a sentence, or names no secret: no assignment, which readAssignment tells
  // after reading the key alone (it starts at the word here), and counts so.
  const kind = text.charCodeAt(keyEnd - 1) === 46 ? null : kindOfAssignedKey(key, inQuery);
  if (kind === null) {
    context.steps += keyEnd - keyStart + 1;
    return { skipTo: keyEnd };
  }
  // A provider's own scheme may follow an Authorization key (never a quote): readAssignment reads it.
  if (!quotedKey && mayNameAuthorization(key)) return null;
  const start = plainValueStart(text, afterSeparator, quotedKey);
  if (start === -1) return null;
  // A quoted value ends before its closing quote, which the read looked at too.
  const end = quotedKey ? quotedValueEnd(text, start) : plainValueEnd(text, start, inQuery);
  if (end === -1) return null;
  const valueStart = quotedKey ? start + 1 : start;
  context.steps += end - keyStart + (quotedKey ? 2 : 3);
  return {
    kind,
    keyEnd,
    // A quoted value starts at its opening quote.
    valueStart: start,
    form: flag ? "flag" : "explicit",
    inQuery,
    key,
    flag,
    value: { start: valueStart, end, text: text.slice(valueStart, end), quoted: quotedKey, readEnd: end + 1 },
  };
}
