import { builtOnFirstUse } from "../built-on-first-use.js";
import { BACKSLASH, DOUBLE_QUOTE, isKeyChar, SINGLE_QUOTE } from "../char-classes.js";
import { kindOfKey, mayNameAuthorization } from "../key-names.js";
import type { RedactionContext } from "../redaction-context.js";
import type { ValueSpan } from "../values.js";
import type { Assignment } from "./key-assignments.js";

/** An assignment read whole, with its value: what readAssignment and readValue give for it. */
export interface PlainAssignment extends Assignment {
  readonly value: ValueSpan;
}

// The characters that end an unquoted value (endsUnquoted in values.ts), and in a query string.
const ENDS = "\\t-\\r \\u00a0\\u2028\\u2029,;";
const QUERY_ENDS = `${ENDS}&#`;
// A value's first character when it is plain: a letter or digit that starts no scheme (readAssignment
// tests `b`, `t`, `d`, `n`, `s`, `a`) and no quote, reference or path. Its last: none that trails.
const FIRST = "[0-9ce-mo-ru-zCE-MO-RU-Z]";
// A value read by hand ends within this many characters (READ_BY_HAND in values.ts); a longer one
// is left to readValue.
const MAX_PLAIN_VALUE = 31;
const separatorAndValue = (ends: string): RegExp =>
  new RegExp(
    `[ \\t]*[:=][ \\t]*(${FIRST}(?:[^${ends}]{0,${MAX_PLAIN_VALUE - 2}}[^${ends}.)\\]}>"'\`\\\\])?)(?=[${ends}]|$)`,
    "y",
  );
// A JSON pair's rest after its key, `": "value"`: the key's closing quote, the separator and a short
// double-quoted value without a backslash or a line break (the general reader's escapes and ends).
const MAX_QUOTED_VALUE = 64;
const patterns = builtOnFirstUse(() => ({
  value: separatorAndValue(ENDS),
  queryValue: separatorAndValue(QUERY_ENDS),
  quotedValue: new RegExp(`["'][ \\t]*[:=][ \\t]*"([^"\\\\\\r\\n]{0,${MAX_QUOTED_VALUE}})"`, "y"),
}));

// Before a key, these change what readAssignment decides: a reference's sigil, a path separator,
// a colon (an id's fields), a quote (a quoted key or a prompt).
const isPlainBefore = (code: number): boolean =>
  !isKeyChar(code) &&
  code !== 36 &&
  code !== 37 &&
  code !== 47 &&
  code !== BACKSLASH &&
  code !== 58 &&
  code !== DOUBLE_QUOTE &&
  code !== SINGLE_QUOTE;

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
  const kind = inQuery && key.length === 3 && key.toLowerCase() === "key" ? "credential" : kindOfKey(key);
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
