/**
 * Judging a value read after a key (`read-value.ts`): a secret, or a word, a number, a
 * reference, a mask, a path, a URL or prose that only names one.
 */
import { isAlnum, isAsciiLetter, isDigit } from "./char-classes.js";
import type { KeyKind } from "./key-names.js";
import type { ValueSpan } from "./read-value.js";

// Values that say a secret is absent rather than hold one.
const ABSENT_WORDS = new Set(
  // `(using password: YES)` is MySQL saying whether a password was sent.
  "true false yes no null nil none undefined unset empty missing required optional redacted n/a".split(" "),
);
// Flags, states and scheme names: an enum, not a secret.
const ENUM_WORDS = new Set(
  (
    "on off na enabled disabled pending expired revoked invalid valid present absent bearer basic " +
    "digest negotiate ntlm oauth oauth2 hmac token jwt"
  ).split(" "),
);
// Words that start a sentence after a flag's name rather than being its value.
const FUNCTION_WORDS = new Set(
  "is are was were be must should can cannot could will would may not and or the a an to of for with in on has have".split(
    " ",
  ),
);
const LONGEST_LISTED_WORD = Math.max(
  ...[...ABSENT_WORDS, ...ENUM_WORDS, ...FUNCTION_WORDS].map((word) => word.length),
);
// `lower` is empty for a value too long to be listed: a set lookup costs more than this test.
const isListed = (words: ReadonlySet<string>, lower: string): boolean => lower !== "" && words.has(lower);
// Each listed word's length and last letter, as `length * 128 + code`: a value none of them has
// (`v1234`, most values) skips lowercasing and three set lookups, each of a fresh string the engine
// hashes first. Lowercasing keeps an ASCII value's length and maps a last character only from
// `A`-`Z`; a non-ASCII one is looked up in full.
// A table, not a set: a lookup by index, where a set's hashed each number.
const LISTED_ENDS = new Uint8Array((LONGEST_LISTED_WORD + 1) * 128);
for (const word of [...ABSENT_WORDS, ...ENUM_WORDS, ...FUNCTION_WORDS])
  LISTED_ENDS[word.length * 128 + word.charCodeAt(word.length - 1)] = 1;
function mayBeListed(value: string): boolean {
  const last = value.charCodeAt(value.length - 1);
  if (last >= 128) return true;
  return LISTED_ENDS[value.length * 128 + (last >= 65 && last <= 90 ? last + 32 : last)] === 1;
}
const isNonSecretWord = (lower: string): boolean =>
  isListed(ABSENT_WORDS, lower) || isListed(ENUM_WORDS, lower);
/** Values that are never a secret after a scheme: the key-assignment search skips them. */
export const NON_SECRET_WORDS: readonly string[] = [...ABSENT_WORDS, ...ENUM_WORDS];
// Each pattern below is tested only when the value's first or last character can start or end
// a match: most values (`v1234`) fail that comparison, where the pattern cost a dense keyed text
// a few milliseconds a megabyte each.
// "Bearer opaque" inside quotes: the scheme says what follows is a credential.
const STARTS_WITH_SCHEME = /^(?:Bearer|Basic|Token|Digest|Bot|Negotiate|SSWS)[ \t]+\S/i;
// `b`, `t`, `d`, `n`, `s` in either case: the first letters of STARTS_WITH_SCHEME's schemes.
const mayStartScheme = (code: number): boolean => {
  const lower = code | 0x20;
  return lower === 98 || lower === 116 || lower === 100 || lower === 110 || lower === 115;
};
const startsWithScheme = (value: string): boolean =>
  mayStartScheme(value.charCodeAt(0)) && STARTS_WITH_SCHEME.test(value);

// Digits alone (a count, a port, an id) are a number: told by a loop, not the pattern, which a
// text of numbered keys (`key=1&key=2&…`) ran for every value.
const isDigits = (value: string): boolean => {
  for (let index = 0; index < value.length; index += 1) if (!isDigit(value.charCodeAt(index))) return false;
  return value.length > 0;
};
const isNumber = (value: string): boolean => {
  const first = value.charCodeAt(0);
  return (
    (isDigit(first) || first === 43 || first === 45) &&
    (isDigits(value) || /^[+-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i.test(value))
  );
};
// `$`, `%`, `{`, `<`, `*`, `x`, `X`: the first characters of a reference or a mask (checked first: it is cheap).
// Comparisons, not a set: this runs for every value judged.
const isMaskOrReferenceStart = (code: number): boolean =>
  code === 36 || code === 37 || code === 123 || code === 60 || code === 42 || code === 120 || code === 88;
/** `${DB_PASSWORD}`, `$DB_PASSWORD`, `%DB_PASSWORD%`, `{{ secrets.X }}`, `<your-token>`, `****`: not the secret itself. */
const isReferenceOrMask = (value: string): boolean =>
  isMaskOrReferenceStart(value.charCodeAt(0)) &&
  /^(?:\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|\{\{[^}]*\}\}|<[^<>]*>|\*+|x{3,}|X{3,})$/.test(
    value,
  );
// `x`, `X`, `*`, `…`: how a mask ends, tested before its pattern, which most values fail only at their end.
const endsLikeMask = (code: number): boolean => code === 120 || code === 88 || code === 42 || code === 0x2026;
/**
 * A provider's prefix and a mask: `sk-proj-XXXX`, `figd_xxxxxxxx`, `ghp_****` (a placeholder in a
 * sample configuration, not the secret). The prefix is short words joined by `-`, `_`, `.` or `:`.
 */
const isPrefixedMask = (value: string): boolean =>
  endsLikeMask(value.charCodeAt(value.length - 1)) &&
  /^[A-Za-z][A-Za-z0-9]{0,11}(?:[-_.:][A-Za-z0-9]{1,11}){0,2}[-_.:](?:x{3,}|X{3,}|\*{3,}|\u2026)$/.test(
    value,
  );
const isPath = (value: string): boolean => /^(?:~?\/|\.{1,2}\/|[A-Za-z]:\\)/.test(value);
/**
 * `^[A-Za-z][A-Za-z0-9+.-]*:\/\/`, read by hand: a search for `://` in every value judged cost more.
 * Never read past the value's end: a word value (`none`) would, and V8 throws away its optimised
 * code for a read out of bounds, and isSecretValue's with it (compiled again on a busy host's
 * compile thread while a process's first megabyte is redacted).
 */
function isUrl(value: string): boolean {
  if (!isAsciiLetter(value.charCodeAt(0))) return false;
  let index = 1;
  for (; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (!isAlnum(code) && code !== 43 && code !== 46 && code !== 45) break;
  }
  return (
    index + 2 < value.length &&
    value.charCodeAt(index) === 58 &&
    value.charCodeAt(index + 1) === 47 &&
    value.charCodeAt(index + 2) === 47
  );
}
/**
 * Lowercase, Capitalized or UPPERCASE words of a word's length, possibly a phrase: prose, not a
 * credential. A single run of 16 or more letters is rarely a word and often a token.
 */
const isProse = (value: string): boolean =>
  isAsciiLetter(value.charCodeAt(value.length - 1)) &&
  /^(?:[a-z]{1,15}|[A-Z][a-z]{1,14}|[A-Z]{1,12})(?: (?:[a-z]{1,15}|[A-Z][a-z]{1,14}|[A-Z]{1,12}))*$/.test(
    value,
  );
// JIRA-1234: a ticket's id, not a secret.
const isIssueKey = (value: string): boolean => {
  const first = value.charCodeAt(0);
  return (
    first >= 65 &&
    first <= 90 &&
    isDigit(value.charCodeAt(value.length - 1)) &&
    /^[A-Z][A-Z0-9]{1,9}-\d{1,7}$/.test(value)
  );
};

function hasAlnum(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) if (isAlnum(value.charCodeAt(index))) return true;
  return false;
}

/**
 * In the bare `key value` form (no `=` or `:`), only a value shaped like a credential counts:
 * "token secret-value" is one, "the token was rejected" and "Unexpected token }" are prose.
 */
export function looksLikeCredential(value: string): boolean {
  if (value.length < 6 || !/^[A-Za-z0-9._~+/=-]+$/.test(value)) return false;
  let letters = 0;
  let digits = 0;
  let joiners = 0;
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (isAsciiLetter(code)) letters += 1;
    else if (isDigit(code)) digits += 1;
    else if (code === 45 || code === 95) joiners += 1;
  }
  if (letters === 0) return false;
  // A version (`token v2.1.0`) or the next flag (`token --help`, `--from-file=x`) is not a value.
  if (value.startsWith("--")) return false;
  if (/^v?\d+(?:\.\d+)+$/.test(value) || /^--?[a-z][a-z-]*$/.test(value)) return false;
  return digits > 0 || joiners > 0 || /[a-z][A-Z]|[A-Z]{2}[a-z]/.test(value);
}

// The last letters of the nouns namesASecret ends with (toke`n`, passwor`d`, secre`t`, ke`y`,
// credentia`l`, cred`s`, cooki`e`), in either case: most values (`v1234`) fail here, before the pattern.
const endsLikeSecretNoun = (code: number): boolean => {
  const lower = code | 0x20;
  return (
    lower === 110 ||
    lower === 100 ||
    lower === 116 ||
    lower === 121 ||
    lower === 108 ||
    lower === 115 ||
    lower === 101
  );
};
/**
 * `app-token`, `db-password`, `api_key`: letters-only words joined by `-` or `_` ending in a
 * secret's noun, the name of a secret (`kubectl get secret app-token`, `--secret=api-key`).
 * Only after a command's word or a flag: `API_KEY=raw-secret` holds one.
 */
export const namesASecret = (value: string): boolean =>
  isAsciiLetter(value.charCodeAt(0)) &&
  endsLikeSecretNoun(value.charCodeAt(value.length - 1)) &&
  /^[A-Za-z]+(?:[-_][A-Za-z]+)*[-_](?:token|password|passwd|secret|key|credentials?|creds|cookie)$/i.test(
    value,
  );

/**
 * Whether digits alone, `length` of them, are a secret as the value of a `kind` key in `form` (not
 * bare): after a scheme and for a password always; in a registry's auth as base64, of eight or more;
 * a count in a collection; a code of six or more for a credential (see isNumber in isSecretValue).
 */
function isSecretNumber(kind: KeyKind, form: AssignmentForm, length: number): boolean {
  if (form === "after-scheme" || kind === "password") return true;
  if (kind === "registry-auth") return length >= 8;
  return kind === "credential" && length >= 6;
}

/** `key=value` or `key: value`; `--key value`; `key value`; `key: Bearer value`. */
export type AssignmentForm = "explicit" | "flag" | "bare" | "after-scheme";

/** Whether the value of a `kind` key, written in `form`, is a secret. */
export function isSecretValue(
  kind: KeyKind,
  form: AssignmentForm,
  value: ValueSpan,
  replacement: string,
): boolean {
  const text = value.text;
  if (text.length === 0 || text === replacement || text.startsWith(replacement)) return false;
  // The bare form's shape test is the strictest and fails fast on prose.
  if (form === "bare") return looksLikeCredential(text);
  // Digits alone (a count, an id, a port; `key=1&key=2&…`) pass every test below but the kind's:
  // told at once, not by a dozen tests each.
  if (isDigit(text.charCodeAt(0)) && isDigits(text)) return isSecretNumber(kind, form, text.length);
  if (isReferenceOrMask(text) || isUrl(text) || isPrefixedMask(text)) return false;
  if (!value.quoted && !hasAlnum(text)) return false;
  // `Authorization: Cookie: …`: the next field's label, not a value.
  if (
    form === "explicit" &&
    !value.quoted &&
    text.charCodeAt(text.length - 1) === 58 &&
    /^[A-Za-z][\w-]*:$/.test(text)
  )
    return false;
  // `"credentials": {`, `"tokens": [`: structure, not a value. Its first code, not two startsWith
  // calls: this runs for every value judged.
  const first = text.charCodeAt(0);
  if (!value.quoted && (first === 123 || first === 91)) return false;
  // Every listed word is short: a longer value is none of them, and lowercasing it costs its length.
  const lower = text.length <= LONGEST_LISTED_WORD && mayBeListed(text) ? text.toLowerCase() : "";
  if (form === "after-scheme") return !isNonSecretWord(lower);
  // `--api-key is required`: a flag followed by a sentence, not by its value.
  if (form === "flag" && isListed(FUNCTION_WORDS, lower)) return false;
  if (kind === "password") return !isListed(ABSENT_WORDS, lower);
  if (startsWithScheme(text)) return true;
  if (isNonSecretWord(lower)) return false;
  // Base64 may start with `/`: a registry blob is judged by its shape alone.
  if (kind === "registry-auth") return /^[A-Za-z0-9+/]{8,}={0,2}$/.test(text) && !isProse(text);
  if (isIssueKey(text)) return false;
  // `GOOGLE_APPLICATION_CREDENTIALS=/etc/gcp/sa.json` names a file; a single token's value that
  // starts with `/` may just as well be base64.
  if (kind === "collection" && isPath(text)) return false;
  // A flag's value is a value: `--token abcdef` holds a token, `token: pending review` is prose.
  if (form === "explicit" && isProse(text)) return false;
  // A count (`Token: 3 of 5 used`); numeric codes a credential could be have six digits or more.
  if (isNumber(text) && (kind === "collection" || text.length < 6)) return false;
  return true;
}
