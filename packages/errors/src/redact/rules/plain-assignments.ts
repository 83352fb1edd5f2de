import { builtOnFirstUse } from "../built-on-first-use.js";
import { DOUBLE_QUOTE, isAlnum, isKeyChar, SINGLE_QUOTE } from "../char-classes.js";
import { kindOfAssignedKey, mayNameAuthorization } from "../key-names.js";
import type { RedactionContext } from "../redaction-context.js";
import {
  BRACKETS,
  classMembers,
  QUERY_VALUE_END_CHARS,
  TRAILING_CHARS,
  VALUE_END_CHARS,
} from "../value-chars.js";
import { READ_BY_HAND, type ValueSpan } from "../values.js";
import { COLON, isPathSeparator, isReferenceSigil, SCHEME_NAMES } from "./assignment-chars.js";
import type { Assignment } from "./key-assignments.js";

/** An assignment read whole, with its value: what readAssignment and readValue give for it. */
export interface PlainAssignment extends Assignment {
  readonly value: ValueSpan;
}

// The fast path's classes are built from the lists the general readers decide on (value-chars.ts,
// assignment-chars.ts), so a character added there reaches it; plain-assignments-chars.test.ts
// holds it to the readers at every code unit.

// A value's first character when it is plain: a letter or digit that starts none of SCHEME_NAMES
// (readAssignment tries a scheme there), so no quote, escape, reference, path or trailing one.
function plainFirst(): string {
  const schemeStarts = new Set(
    SCHEME_NAMES.flatMap((name) => [name.charCodeAt(0) | 0x20, name.charCodeAt(0) & ~0x20]),
  );
  let first = "";
  for (let code = 0; code < 128; code += 1) {
    if (isAlnum(code) && !schemeStarts.has(code)) first += String.fromCharCode(code);
  }
  return `[${first}]`;
}
// readValue reads at most READ_BY_HAND characters by hand, then searches on for the end, counting
// steps of its own: a shorter value is all the fast path takes.
const MAX_PLAIN_VALUE = READ_BY_HAND - 1;
// A plain value after its separator, up to an end (`ends`, a class's members); its last character
// is none that trails (TRAILING_CHARS, and a closing bracket, which trails unless opened).
const separatorAndValue = (first: string, ends: string): RegExp => {
  const notLast = classMembers([...TRAILING_CHARS, ...BRACKETS.map(([closer]) => closer)]);
  return new RegExp(
    `[ \\t]*[:=][ \\t]*(${first}(?:[^${ends}]{0,${MAX_PLAIN_VALUE - 2}}[^${ends}${notLast}])?)(?=[${ends}]|$)`,
    "y",
  );
};
// A JSON pair's rest after its key, `": "value"`: the key's closing quote, the separator and a short
// double-quoted value without a backslash or a line break (the general reader's escapes and ends).
const MAX_QUOTED_VALUE = 64;
const patterns = builtOnFirstUse(() => {
  const first = plainFirst();
  return {
    value: separatorAndValue(first, classMembers(VALUE_END_CHARS)),
    queryValue: separatorAndValue(first, classMembers(QUERY_VALUE_END_CHARS)),
    quotedValue: new RegExp(`["'][ \\t]*[:=][ \\t]*"([^"\\\\\\r\\n]{0,${MAX_QUOTED_VALUE}})"`, "y"),
  };
});

// Before a key, these change what readAssignment decides: a key character (the key starts
// earlier), a reference's sigil, a path separator, a colon (an id's fields). A quote is a pair's,
// tested before this.
const isPlainBefore = (code: number): boolean =>
  !isKeyChar(code) && !isReferenceSigil(code) && !isPathSeparator(code) && code !== COLON;

/**
 * The commonest assignments, `key=value` or `key: value` with a short plain value and a JSON pair
 * `"key": "value"`, read with one match of a sticky pattern instead of readAssignment's steps and
 * readValue's; null for any other shape (the caller reads it as before). Where it answers, it
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
): PlainAssignment | null {
  const before = wordStart > 0 ? text.charCodeAt(wordStart - 1) : -1;
  const quotedKey = before === DOUBLE_QUOTE || before === SINGLE_QUOTE;
  if (wordStart > 0 && !quotedKey && !isPlainBefore(before)) return null;
  let keyEnd = wordEnd;
  const rightLimit = Math.min(text.length, wordEnd + rightSide);
  while (keyEnd < rightLimit && isKeyChar(text.charCodeAt(keyEnd))) keyEnd += 1;
  // A key too long, or one that ends a sentence: readAssignment's to skip.
  if (keyEnd === rightLimit || text.charCodeAt(keyEnd - 1) === 46) return null;
  const inQuery = before === 63 || before === 38;
  const pattern = quotedKey ? patterns().quotedValue : inQuery ? patterns().queryValue : patterns().value;
  pattern.lastIndex = keyEnd;
  const found = pattern.exec(text);
  if (found === null) return null;
  const key = text.slice(wordStart, keyEnd);
  // A provider's own scheme may follow an Authorization key (never a quote): readAssignment reads it.
  if (!quotedKey && mayNameAuthorization(key)) return null;
  const kind = kindOfAssignedKey(key, inQuery);
  if (kind === null) return null;
  const valueText = found[1] as string;
  // A quoted value ends before its closing quote, which the read looked at too.
  const end = quotedKey ? pattern.lastIndex - 1 : pattern.lastIndex;
  const valueStart = end - valueText.length;
  context.steps += end - wordStart + (quotedKey ? 2 : 3);
  return {
    kind,
    keyEnd,
    // A quoted value starts at its opening quote.
    valueStart: quotedKey ? valueStart - 1 : valueStart,
    form: "explicit",
    inQuery,
    key,
    flag: false,
    value: { start: valueStart, end, text: valueText, quoted: quotedKey, readEnd: end + 1 },
  };
}
