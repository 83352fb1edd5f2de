import { builtOnFirstUse } from "../built-on-first-use.js";
import { isBlank, isKeyChar } from "../char-classes.js";
import { classMembers, VALUE_END_CHARS } from "../value-chars.js";
import { isPathSeparator, isReferenceSigil, SCHEME_NAMES } from "./assignment-chars.js";

// A lowercase word read as a bare value: readValue reads it up to one of VALUE_END_CHARS (or the
// text's end) and leaves a sentence's dot after it to the text; no scheme name followed by a blank,
// which readAssignment would take for a scheme.
const keptProseWord = builtOnFirstUse(
  () =>
    new RegExp(
      `(?!(?:${SCHEME_NAMES.map((name) => name.toLowerCase()).join("|")})[ \\t])[a-z]{1,64}\\.?(?![^${classMembers(VALUE_END_CHARS)}])`,
      "y",
    ),
);

/**
 * Where the value starts when the sensitive word at `[wordStart, wordEnd)` is a whole key followed
 * by blanks and a lowercase word (`secret manager for…`, `auth failed.`): prose, which the
 * key-assignment rule keeps, told by one native match; else -1. readAssignment reads such a key as
 * the word itself (no key character before it; no sigil or path separator, which make it no key),
 * in the bare form (no separator, no quote; not a flag, as no dash starts it), or tells it no key
 * at all (a key that names no secret); either way the value is kept: in the bare form only a
 * credential's shape counts (looksLikeCredential), and lowercase letters alone have none. So the
 * rule may skip it without reading the key, its kind or the value by hand: the first megabyte a
 * process redacts runs those reads unoptimised, a few microseconds each.
 */
export function keptProseStart(text: string, wordStart: number, wordEnd: number): number {
  if (wordStart > 0) {
    const before = text.charCodeAt(wordStart - 1);
    if (isKeyChar(before) || isReferenceSigil(before) || isPathSeparator(before)) return -1;
  }
  let valueStart = wordEnd;
  while (isBlank(text.charCodeAt(valueStart))) valueStart += 1;
  if (valueStart === wordEnd) return -1;
  const word = keptProseWord();
  word.lastIndex = valueStart;
  return word.test(text) ? valueStart : -1;
}
