import { isAsciiLetter, isToken68Char, isWhitespace } from "../char-classes.js";
import type { RedactionContext } from "../redaction-context.js";
import { Rewriter } from "../rewriter.js";
import { MAX_CREDENTIAL_LENGTH } from "../values.js";

const AUTH_SCHEME = /\b(?:Bearer|Basic|bearer|basic|BEARER|BASIC)[ \t]{1,8}/g;
// Long lowercase words that follow "Bearer" in prose ("Bearer authentication is required").
const PROSE_AFTER_SCHEME = new Set(["authentication", "authorization", "authenticated", "authenticating"]);

// What may follow a credential: the end, a blank, a quote, a separator or a closing bracket.
const endsCredential = (code: number): boolean =>
  Number.isNaN(code) || isWhitespace(code) || "\"'`,;)]}>\\&".includes(String.fromCharCode(code));

function isLettersOnly(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    if (!isAsciiLetter(value.charCodeAt(index))) return false;
  }
  return true;
}

/**
 * Whether the word after a scheme is a credential. Prose such as "bearer authentication",
 * "Basic auth" or "Bearer Token" is not: a word of letters in one case after a lowercase
 * scheme, or a short one after any scheme.
 */
function isCredential(scheme: string, value: string): boolean {
  if (!isLettersOnly(value)) return true;
  const tail = value.slice(1);
  if (tail !== tail.toLowerCase() && tail !== tail.toUpperCase()) return true;
  if (scheme === scheme.toLowerCase()) return false;
  return value.length >= 12 && !PROSE_AFTER_SCHEME.has(value.toLowerCase());
}

/** `Bearer <credential>` and `Basic <credential>`: the scheme is kept, the credential redacted. */
export function redactAuthSchemes(text: string, context: RedactionContext): string {
  const rewriter = new Rewriter(text);
  AUTH_SCHEME.lastIndex = 0;
  for (let found = AUTH_SCHEME.exec(text); found !== null; found = AUTH_SCHEME.exec(text)) {
    context.steps += 1;
    const start = found.index + found[0].length;
    const stop = Math.min(text.length, start + MAX_CREDENTIAL_LENGTH);
    let end = start;
    while (end < stop && isToken68Char(text.charCodeAt(end))) end += 1;
    while (end < stop && text.charCodeAt(end) === 61) end += 1;
    context.steps += end - start + 1;
    // A credential is a whole token68: `Bearer expires_in=3600` is a key and its value, not a token.
    if (!endsCredential(text.charCodeAt(end))) continue;
    while (end > start && text.charCodeAt(end - 1) === 46) end -= 1;
    if (end - start < 6) continue;
    const scheme = found[0].trimEnd();
    if (!isCredential(scheme, text.slice(start, end))) continue;
    rewriter.replace(start, end, context.replacement);
    AUTH_SCHEME.lastIndex = end;
  }
  return rewriter.finish();
}
