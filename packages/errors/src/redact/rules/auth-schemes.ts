import type { Triggers } from "../alphabet-gate.js";
import { builtOnFirstUse } from "../built-on-first-use.js";
import { isAsciiLetter, isBlank, isToken68Char, isWhitespace } from "../char-classes.js";
import { trieOf } from "../pattern-source.js";
import { MAX_CREDENTIAL_LENGTH } from "../read-value.js";
import type { RedactionContext } from "../redaction-context.js";
import { RepeatSkipper } from "../repeat-skipper.js";
import { Rewriter } from "../rewriter.js";

const MAX_BLANKS = 8;
const SCHEME_WORDS = ["Bearer", "Basic", "bearer", "basic", "BEARER", "BASIC"];
/** Every credential this rule finds follows one of its scheme words. */
export const AUTH_SCHEME_TRIGGERS: Triggers = { words: SCHEME_WORDS, caseless: false };

// A scheme, and the scheme names that follow it as words (`Bearer Bearer …` is a list of words, not
// a credential): only the last of such a run may be followed by one. The run is read in one pass
// with no backtracking into it: its words are self-delimiting, so a greedy bounded repetition
// taken again until it stops advancing reads the same run as one unbounded atomic match would,
// while V8's backtracking stack stays small (an unbounded repetition over a 1 MiB run made the
// first calls 30× slower than the later ones, until optimised code arrived).
const schemePatterns = builtOnFirstUse(() => {
  const scheme = `(?:${trieOf(SCHEME_WORDS)})`;
  return {
    start: new RegExp(`\\b${scheme}`, "g"),
    run: new RegExp(`(?:[ \\t]{1,${MAX_BLANKS}}${scheme}(?![A-Za-z0-9._~+/=-])){0,256}`, "y"),
  };
});

/** The end of the run of scheme words that continues at `from`. */
function schemeRunEnd(text: string, from: number): number {
  const schemeRun = schemePatterns().run;
  let position = from;
  for (;;) {
    // Every word of the run starts with `b` or `B` after a blank: most credentials fail this
    // comparison, before a call into the engine.
    let next = position;
    while (next - position < MAX_BLANKS && isBlank(text.charCodeAt(next))) next += 1;
    if (next === position || (text.charCodeAt(next) | 0x20) !== 98) return position;
    schemeRun.lastIndex = position;
    // test, not exec: where the run ends is all this needs, and a match array per scheme costs.
    if (!schemeRun.test(text) || schemeRun.lastIndex === position) return position;
    position = schemeRun.lastIndex;
  }
}

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
// Comparisons, not a lookup in a string of them: this runs for every credential.
const endsCredential = (code: number): boolean =>
  Number.isNaN(code) ||
  isWhitespace(code) ||
  code === 34 ||
  code === 39 ||
  code === 96 ||
  code === 44 ||
  code === 59 ||
  code === 41 ||
  code === 93 ||
  code === 125 ||
  code === 62 ||
  code === 92 ||
  code === 38;

// `token_type=Bearer expires_in=3600`: the next field of an OAuth token response, not a credential.
const OAUTH_FIELD = /^(?:expires_in|expires_at|ext_expires_in|scope|refresh_token|id_token)=/;
// Their first letters: a credential starting otherwise is tested without a slice of it.
const isOauthFieldStart = (code: number): boolean =>
  code === 101 || code === 115 || code === 114 || code === 105;

/** Whether `[start, end)` of `text` is ASCII letters only. */
function isLettersOnly(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index += 1) {
    if (!isAsciiLetter(text.charCodeAt(index))) return false;
  }
  return true;
}

const LONGEST_PROSE_WORD = Math.max(...[...PROSE_AFTER_SCHEME].map((word) => word.length));
/**
 * Whether the word `[start, end)` of `text`, lowercased, may be a word of PROSE_AFTER_SCHEME, all
 * ASCII letters: not when it is longer, or holds an ASCII character other than a letter
 * (lowercasing keeps those, and makes nothing longer but what it turns non-ASCII). Most
 * credentials (`v1234x`) fail here, before a copy, a lowercased copy and a set lookup.
 */
function mayBeProse(text: string, start: number, end: number): boolean {
  if (end - start > LONGEST_PROSE_WORD) return false;
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 128 && !isAsciiLetter(code)) return false;
  }
  return true;
}

/**
 * Whether the word `[start, end)` after the scheme that ends at `schemesEnd` is a credential: not
 * a word of prose ("Bearer authentication", "Basic auth"), and not a plain word after a lowercase
 * scheme ("bearer tokens are"). Read in place: most credentials hold a character other than a
 * letter, and are judged without a copy of them or of the scheme.
 */
function isCredential(text: string, schemesEnd: number, start: number, end: number): boolean {
  // Trailing dots ("… Bearer auth.") are not part of the word.
  let wordEnd = end;
  while (wordEnd > start && text.charCodeAt(wordEnd - 1) === 46) wordEnd -= 1;
  if (mayBeProse(text, start, wordEnd) && PROSE_AFTER_SCHEME.has(text.slice(start, wordEnd).toLowerCase()))
    return false;
  if (!isLettersOnly(text, start, wordEnd)) return true;
  let schemeStart = schemesEnd;
  while (isAsciiLetter(text.charCodeAt(schemeStart - 1))) schemeStart -= 1;
  const scheme = text.slice(schemeStart, schemesEnd);
  return scheme !== scheme.toLowerCase();
}

/** `Bearer <credential>` and `Basic <credential>`: the scheme is kept, the credential redacted. */
export function redactAuthSchemes(text: string, context: RedactionContext): string {
  const rewriter = new Rewriter(text, context.replacement);
  const repeats = new RepeatSkipper(text, rewriter, context);
  const schemeStart = schemePatterns().start;
  schemeStart.lastIndex = 0;
  for (;;) {
    schemeStart.lastIndex = repeats.resume(schemeStart.lastIndex, 0);
    // test, not exec: no match array per scheme. The match is `Bearer` or `Basic` (in one of
    // three casings), so its last letter says where it started.
    if (!schemeStart.test(text)) break;
    const matchEnd = schemeStart.lastIndex;
    const matchStart = matchEnd - ((text.charCodeAt(matchEnd - 1) | 0x20) === 114 ? 6 : 5);
    const schemesEnd = schemeRunEnd(text, matchEnd);
    schemeStart.lastIndex = schemesEnd;
    let start = schemesEnd;
    while (start - schemesEnd <= MAX_BLANKS && isBlank(text.charCodeAt(start))) start += 1;
    context.steps += start - matchStart + 1;
    if (start === schemesEnd || start - schemesEnd > MAX_BLANKS) continue;
    const stop = Math.min(text.length, start + MAX_CREDENTIAL_LENGTH);
    let end = start;
    // token68 and its `=` padding; an `=` inside is kept in the credential too.
    while (end < stop && (isToken68Char(text.charCodeAt(end)) || text.charCodeAt(end) === 61)) end += 1;
    context.steps += end - start + 1;
    if (end - start < 6 || !endsCredential(text.charCodeAt(end))) continue;
    if (isOauthFieldStart(text.charCodeAt(start)) && OAUTH_FIELD.test(text.slice(start, end))) continue;
    if (!isCredential(text, schemesEnd, start, end)) continue;
    rewriter.replace(start, end);
    schemeStart.lastIndex = end;
  }
  return rewriter.finish();
}
