import { isAsciiLetter, isToken68Char, isWhitespace } from "../char-classes.js";
import type { RedactionContext } from "../redaction-context.js";
import { Rewriter } from "../rewriter.js";
import { MAX_CREDENTIAL_LENGTH } from "../values.js";

const SCHEME_NAMES = "Bearer|Basic|bearer|basic|BEARER|BASIC";
// A scheme, then what a credential needs: six token68 characters that are not a scheme name again
// (`Bearer Bearer …` is a list of words). The engine skips what fails without a call per scheme.
const AUTH_SCHEME = new RegExp(
  `\\b(?:${SCHEME_NAMES})[ \\t]{1,8}(?=[A-Za-z0-9._~+/=-]{6})(?!(?:${SCHEME_NAMES})(?![A-Za-z0-9._~+/=-]))`,
  "g",
);
// Words that follow "Bearer" or "Basic" in prose ("Bearer authentication is required", "send a
// Bearer Token"): any other word after a capitalised scheme is taken as the credential.
const PROSE_AFTER_SCHEME = new Set(
  (
    "authentication authorization authenticated authenticating auth token tokens scheme schemes header " +
    "headers credential credentials access realm string value format type prefix flow grant strategy " +
    "bearer basic"
  ).split(" "),
);

// What may follow a credential: the end, a blank, a quote, a separator or a closing bracket.
const endsCredential = (code: number): boolean =>
  Number.isNaN(code) || isWhitespace(code) || "\"'`,;)]}>\\&".includes(String.fromCharCode(code));

// `token_type=Bearer expires_in=3600`: the next field of an OAuth token response, not a credential.
const OAUTH_FIELD = /^(?:expires_in|expires_at|ext_expires_in|scope|refresh_token|id_token)=/;

function isLettersOnly(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    if (!isAsciiLetter(value.charCodeAt(index))) return false;
  }
  return true;
}

/**
 * Whether the word after a scheme is a credential: not a word of prose ("Bearer authentication",
 * "Basic auth"), and not a plain word after a lowercase scheme ("bearer tokens are").
 */
function isCredential(scheme: string, value: string): boolean {
  const word = value.replace(/\.+$/, "");
  if (PROSE_AFTER_SCHEME.has(word.toLowerCase())) return false;
  return scheme !== scheme.toLowerCase() || !isLettersOnly(word);
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
    // token68 and its `=` padding; an `=` inside is kept in the credential too.
    while (end < stop && (isToken68Char(text.charCodeAt(end)) || text.charCodeAt(end) === 61)) end += 1;
    context.steps += end - start + 1;
    if (!endsCredential(text.charCodeAt(end)) || OAUTH_FIELD.test(text.slice(start, end))) continue;
    if (end - start < 6) continue;
    const scheme = found[0].trimEnd();
    if (!isCredential(scheme, text.slice(start, end))) continue;
    rewriter.replace(start, end, context.replacement);
    AUTH_SCHEME.lastIndex = end;
  }
  return rewriter.finish();
}
