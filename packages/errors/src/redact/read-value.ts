/**
 * Reading a value after a key: quoted (at any escaping depth) or up to the characters that end
 * an unquoted one, bounded, with the punctuation that belongs to the text around it left out.
 * Whether what was read is a secret is `secret-values.ts`'s to judge.
 */
import { BACKSLASH, codeAt, DOUBLE_QUOTE, SINGLE_QUOTE } from "./char-classes.js";
import type { RedactionContext } from "./redaction-context.js";
import type { UnquotedValueEnds } from "./unquoted-value-ends.js";

// Longer runs are noise (a dump, a repeated byte), not one credential: redacting
// past this would swallow the rest of a diagnostic.
export const MAX_CREDENTIAL_LENGTH = 4096;

/** A value in the text: `[start, end)` is what gets replaced; quotes around it are kept. */
export interface ValueSpan {
  readonly start: number;
  readonly end: number;
  /** The value's text without its quotes. */
  readonly text: string;
  readonly quoted: boolean;
  /** The position after the last character the read looked at (a closing quote, the end that stopped it). */
  readonly readEnd: number;
}

/**
 * A quoted value starting at `start` (at its opening quote, which may be escaped any number
 * of levels deep: `"`, `\"`, `\\\"`), or null. A closing quote has as many backslashes before
 * it, modulo the escaping of backslashes themselves; a plain quote stops at a line end too.
 */
function readQuoted(text: string, start: number, context: RedactionContext): ValueSpan | null {
  let index = start;
  while (codeAt(text, index) === BACKSLASH) index += 1;
  const level = index - start;
  const quote = codeAt(text, index);
  if (quote !== DOUBLE_QUOTE && (quote !== SINGLE_QUOTE || level > 0)) return null;
  const contentStart = index + 1;
  const stop = Math.min(text.length, contentStart + MAX_CREDENTIAL_LENGTH);
  let backslashes = 0;
  for (index = contentStart; index < stop; index += 1) {
    const code = text.charCodeAt(index);
    if (code === BACKSLASH) {
      backslashes += 1;
      continue;
    }
    if (code === quote && (quote === SINGLE_QUOTE || backslashes % (2 * level + 2) === level)) {
      context.steps += index - contentStart + 1;
      const end = index - level;
      return {
        start: contentStart,
        end,
        text: text.slice(contentStart, end),
        quoted: true,
        readEnd: index + 1,
      };
    }
    if (level === 0 && (code === 10 || code === 13)) break;
    backslashes = 0;
  }
  context.steps += index - contentStart + 1;
  if (index === text.length) context.readToEnd = true;
  return {
    start: contentStart,
    end: index,
    text: text.slice(contentStart, index),
    quoted: true,
    readEnd: index + 1,
  };
}

// VALUE_END_CHARS and QUERY_VALUE_END_CHARS (value-chars.ts) as comparisons, by range: letters and
// most punctuation (`<` to `~`) end nothing and cost two comparisons, digits three. isWhitespace
// written out, not called: a call per character read costs, until V8 optimises this.
export const endsUnquoted = (code: number, inQuery: boolean): boolean =>
  code >= 60
    ? code > 126 && (code === 0xa0 || code === 0x2028 || code === 0x2029)
    : code >= 48
      ? code === 59
      : code === 32 || (code >= 9 && code <= 13) || code === 44 || (inQuery && (code === 38 || code === 35));
// A long value (a dump runs to the bound) is read on by the engine, several times faster than by hand.
export const READ_BY_HAND = 32;
// Quotes and sentence ends after a value belong to the text around it, and so does a closing
// bracket the value did not open (`{token: abc}`, but not `${DB_PASSWORD}`): TRAILING_CHARS and
// BRACKETS (value-chars.ts). A switch, not a lookup object: this runs for the last characters of
// every value read.
function openerOf(code: number): string | undefined {
  switch (code) {
    case 41:
      return "(";
    case 93:
      return "[";
    case 125:
      return "{";
    case 62:
      return "<";
    default:
      return undefined;
  }
}
export function isTrailingPunctuation(code: number, value: string): boolean {
  const opener = openerOf(code);
  if (opener !== undefined) return !value.includes(opener);
  return code === 46 || code === DOUBLE_QUOTE || code === SINGLE_QUOTE || code === 96 || code === BACKSLASH;
}

/** The value at `start`: quoted, or up to whitespace, `,` or `;` (and `&`, `#` in a query string). */
export function readValue(
  text: string,
  start: number,
  inQuery: boolean,
  context: RedactionContext,
  ends: UnquotedValueEnds,
): ValueSpan {
  const quoted = readQuoted(text, start, context);
  if (quoted) return quoted;
  const stop = Math.min(text.length, start + MAX_CREDENTIAL_LENGTH);
  let end = start;
  const handStop = Math.min(stop, start + READ_BY_HAND);
  while (end < handStop && !endsUnquoted(text.charCodeAt(end), inQuery)) end += 1;
  if (end === handStop && end < stop) end = Math.min(stop, ends.endFrom(end, inQuery, context));
  context.steps += end - start + 1;
  const readEnd = end + 1;
  // Openers never trail, so the whole value answers "did it open this bracket" for every cut.
  let whole: string | undefined;
  while (end > start) {
    const code = text.charCodeAt(end - 1);
    if (openerOf(code) !== undefined) whole ??= text.slice(start, end);
    if (!isTrailingPunctuation(code, whole ?? "")) break;
    end -= 1;
  }
  return { start, end, text: text.slice(start, end), quoted: false, readEnd };
}
