import type { Triggers } from "../alphabet-gate.js";
import { builtOnFirstUse } from "../built-on-first-use.js";
import { BACKSLASH, DOUBLE_QUOTE, isKeyChar, SINGLE_QUOTE } from "../char-classes.js";
import { trieOf } from "../pattern-source.js";
import type { RedactionContext } from "../redaction-context.js";
import { WindowedSearch } from "../windowed-search.js";

// A key is a bounded identifier around a sensitive word: scanning outwards by hand (instead of
// one pattern with open `*` on both sides) keeps the scan linear in the input.
export const MAX_KEY_SIDE = 64;

// The words that can make a key sensitive; `kindOfKey` decides on the whole key around them.
const SENSITIVE_WORDS = [
  ...["api", "private", "access", "account", "secret", "signing", "client"].map((word) => `${word} key`),
  "connection string",
  ...["password", "passwd", "passphrase", "pass", "pwd", "secret", "token", "credential", "creds", "cookie"],
  ...["jwt", "ticket", "authorization", "auth", "signature", "sig", "key", "connection", "session"],
  // Words that make a key sensitive only next to another (`SONAR_LOGIN`; see kindOfKey).
  ...["login", "contribsys"],
];
// Words that make a key sensitive only as its last part: a personal access token with no prefix
// of its own (`AZURE_DEVOPS_EXT_PAT`, `GITHUB_PATS`). Elsewhere they begin common words (`path`,
// `pattern`) and other tokens' prefixes (`pat-na1-`, `CCIPAT_`), each a key candidate for nothing.
const LAST_PART_WORDS = ["pat", "pats"];
/** Every key holds one of these words (sensitiveWord finds them in any case). */
export const KEY_WORD_TRIGGERS: Triggers = {
  words: [...SENSITIVE_WORDS, ...LAST_PART_WORDS],
  caseless: true,
};
// The second words of the two-word sensitive words (` key` of `api key`), and their first letters.
const SECOND_WORDS = SENSITIVE_WORDS.filter((sensitive) => sensitive.includes(" ")).map(
  (sensitive) => sensitive.split(" ")[1] as string,
);
const SECOND_WORD_FIRSTS = new Set(SECOND_WORDS.map((word) => word.charCodeAt(0)));
/**
 * Whether `code` may start a second word (secondWord's, in either case): most flags' values do
 * not, and are told so without a call into the engine per flag.
 */
export const mayStartSecondWord = (code: number): boolean => SECOND_WORD_FIRSTS.has(code | 0x20);
const SCHEMES = ["bearer", "basic", "token", "digest", "negotiate", "bot", "ssws", "apikey"];

// `key=`, `key: `, `"key": `, `\"key\":`, unless a label follows (`Authorization: Cookie: …`).
const EXPLICIT = `\\\\*["']?[ \\t]*[:=](?![ \\t]*[A-Za-z][\\w-]*:(?:[ \\t]|$))`;
// `<add key="ClearTextPassword" value="…" />`: a .NET configuration entry (see readAssignment).
const CONFIG_ENTRY = `"[ \\t]+value="`;

/** The patterns that find the keys of sensitive values, built on the first redaction. */
export interface KeyPatterns {
  /**
   * A sensitive word when what follows can make its key an assignment (more key characters, a
   * separator, a scheme, a credential-shaped value): a necessary condition of `readAssignment`
   * accepting the key, never a sufficient one. The engine skips the words that cannot be keys
   * (`token token …`) without a call per word.
   */
  readonly keyCandidate: RegExp;
  /** keyCandidate tried only where it is set to start (a sensitive word found by a search). */
  readonly keyCandidateAt: RegExp;
  /**
   * The dash that starts a `--flag value` whose key holds a sensitive word (any value follows a
   * flag); the key is a run of key characters after it of at most MAX_FLAG_KEY. Its own pattern:
   * a second alternative in keyCandidate would keep the engine from skipping ahead to the words.
   */
  readonly flagCandidate: RegExp;
  /**
   * After a flagCandidate's dash, the key up to the end of its sensitive word: needed only when
   * that word is two (`--secret key value`); a one-word key ends where its key characters do.
   */
  readonly flagKeyWord: RegExp;
  /** A space and the second word of a two-word sensitive word (` key` of `api key`). */
  readonly secondWord: RegExp;
  /** A sensitive word anywhere; it reads at most MAX_WORD characters from its start. */
  readonly sensitiveWord: RegExp;
}

export const keyPatterns = builtOnFirstUse((): KeyPatterns => {
  const word = `(?:${trieOf(SENSITIVE_WORDS)}|(?:${trieOf(LAST_PART_WORDS)})(?![\\w.-]))`;
  // `key Bearer value`, unless the value is a scheme name too (`token Token token …`).
  const afterScheme = `(?:${trieOf(SCHEMES)})[ \\t]+(?!(?:${trieOf(SCHEMES)})(?![^\\s,;]))`;
  // `key value`: the value must look like a credential (see looksLikeCredential): six characters
  // or more, and not a sensitive word itself (`password password …` is a list of words).
  const bareCredential = `\\\\*["']?(?!${word}(?![\\w.~+/=-]))(?=[\\w.~+/=-]{6})`;
  // `--key value`: a dash after a non-key character, then a key holding a sensitive word.
  const flagKey = `-?[\\w.-]{0,${MAX_KEY_SIDE}}?${word}(?=[\\w.-]{0,${MAX_KEY_SIDE}}[ \\t]+[^ \\t])`;
  const keyCandidate = `${word}(?=[\\w.-]|${EXPLICIT}|${CONFIG_ENTRY}|[ \\t]+(?:${bareCredential}|${afterScheme}))`;
  return {
    keyCandidate: new RegExp(keyCandidate, "gi"),
    keyCandidateAt: new RegExp(keyCandidate, "iy"),
    flagCandidate: new RegExp(`-(?<![\\w.-]-)(?=${flagKey})`, "gi"),
    flagKeyWord: new RegExp(flagKey, "iy"),
    secondWord: new RegExp(` (?:${trieOf([...new Set(SECOND_WORDS)])})`, "iy"),
    sensitiveWord: new RegExp(word, "gi"),
  };
});

/**
 * Whether keyCandidate's look-ahead can hold after a sensitive word ending at `wordEnd`, told by
 * the characters it starts with: a key character, a backslash, a quote or a separator; or blanks
 * and then one of those or a credential's character (`~`, `+`, `/`). False where the pattern must
 * fail, as after each value a flag's pass redacted (`--token [REDACTED]`): the key pass tells so
 * without a call into the engine.
 */
export function mayFollowKeyWord(text: string, wordEnd: number): boolean {
  let position = wordEnd;
  while (text.charCodeAt(position) === 32 || text.charCodeAt(position) === 9) position += 1;
  const code = text.charCodeAt(position);
  if (isKeyChar(code) || code === BACKSLASH || code === DOUBLE_QUOTE || code === SINGLE_QUOTE) return true;
  if (code === 58 || code === 61) return true;
  // A credential's other characters start a bare value, after a blank only.
  return position > wordEnd && (code === 126 || code === 43 || code === 47);
}

/** The longest key after a flagCandidate's dash: a key side on each side of a sensitive word. */
export const MAX_FLAG_KEY = 1 + 2 * MAX_KEY_SIDE + Math.max(...SENSITIVE_WORDS.map((word) => word.length));
export const MAX_WORD = 2 * Math.max(...SENSITIVE_WORDS.map((word) => word.length));
/** How far after a flag's dash its key's sensitive word may start: `-`, a key side. */
export const MAX_FLAG_WORD_START = 2 + MAX_KEY_SIDE;
/**
 * What a candidate pattern's look-ahead reads after a key (keyCandidate) or a flag's key
 * (flagCandidate), at most: a quote, a separator, a scheme or a sensitive word and a few characters
 * more. The runs of blanks, backslashes and name characters it reads to their ends come on top
 * (RUNS_PAST_REACH): a run has no bound of its own.
 */
export const MAX_LOOKAHEAD = 64;
/**
 * The most runs of one class the patterns and readAssignment read one after another past a
 * position they report: `\\*["']?[ \t]*[:=]` then `[ \t]*[A-Za-z][\w-]*:` in EXPLICIT.
 */
export const RUNS_PAST_REACH = 4;

/**
 * The sensitive words of `text`, searched window by window (WindowedSearch): a repeated stretch
 * without one (`-H ` or `AKIA` a million times) costs a few windows, not a scan of it.
 */
export function sensitiveWords(text: string, context: RedactionContext): WindowedSearch {
  return new WindowedSearch(text, keyPatterns().sensitiveWord, 0, MAX_WORD, context);
}
