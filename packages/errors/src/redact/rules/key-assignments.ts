import {
  BACKSLASH,
  codeAt,
  DOUBLE_QUOTE,
  isBlank,
  isKeyChar,
  isWhitespace,
  SINGLE_QUOTE,
} from "../char-classes.js";
import { type KeyKind, kindOfAssignedKey, mayNameAuthorization } from "../key-names.js";
import { overlongValueEnd } from "../overlong-runs.js";
import type { RedactionContext } from "../redaction-context.js";
import { RepeatSkipper } from "../repeat-skipper.js";
import { Rewriter } from "../rewriter.js";
import { UnquotedValueEnds } from "../unquoted-value-ends.js";
import {
  type AssignmentForm,
  isSecretValue,
  looksLikeCredential,
  MAX_CREDENTIAL_LENGTH,
  namesASecret,
  readValue,
  type ValueSpan,
} from "../values.js";
import type { WindowedSearch } from "../windowed-search.js";
import {
  COLON,
  isPathSeparator,
  isPathStart,
  isReferenceSigil,
  mayStartScheme,
  SCHEME_NAMES,
} from "./assignment-chars.js";
import { FlagDashes } from "./flag-dashes.js";
import {
  keyPatterns,
  MAX_FLAG_KEY,
  MAX_FLAG_WORD_START,
  MAX_KEY_SIDE,
  MAX_LOOKAHEAD,
  MAX_WORD,
  mayFollowKeyWord,
  mayStartSecondWord,
  RUNS_PAST_REACH,
  sensitiveWords,
} from "./key-candidates.js";
import { judgeKeysInRun } from "./key-runs.js";
import { plainKeyStart, readPlain } from "./plain-assignments.js";
import type { Reach } from "./token-shape.js";

const SCHEME = new RegExp(`(?:${SCHEME_NAMES.join("|")})[ \\t]+`, "iy");
// Any other scheme: a capitalised word of letters (`Splunk`, `GenieKey`, `Klaviyo-API-Key`) and
// blanks, when the word after it is shaped like a credential (see otherSchemeEnd).
const OTHER_SCHEME = /[A-Z][A-Za-z-]{1,39}[ \t]{1,8}/y;
const MAX_OTHER_SCHEME = 1 + 39 + 8;
// The word after it, read at most this far: enough to judge its shape.
const MAX_SCHEME_VALUE = 256;
const SCHEME_VALUE = new RegExp(`[A-Za-z0-9._~+/=-]{1,${MAX_SCHEME_VALUE}}`, "y");

// `\n` written out in a JSON string ends the word before it, so `\napi_key` is the key `api_key`.
const isEscapedLineBreak = (text: string, index: number): boolean => {
  const code = text.charCodeAt(index);
  return (code === 110 || code === 114 || code === 116) && codeAt(text, index - 1) === BACKSLASH;
};

// The key and value attributes of a .NET configuration entry.
const CONFIG_KEY = 'key="';
const CONFIG_VALUE = 'value="';
const isConfigEntry = (text: string, keyStart: number, position: number): boolean =>
  text.startsWith(CONFIG_KEY, keyStart - CONFIG_KEY.length) && text.startsWith(CONFIG_VALUE, position);

export interface Assignment {
  readonly kind: KeyKind;
  readonly keyEnd: number;
  readonly valueStart: number;
  readonly form: AssignmentForm;
  readonly inQuery: boolean;
  readonly key: string;
  readonly flag: boolean;
}

/**
 * A `--flag` or a lowercase word as in a command (`kubectl get secret app-token`): a value
 * that names a secret (`app-token`) is not one. `OPENAI_API_KEY first-secret` holds one.
 */
export const isCommandLike = (assignment: Assignment): boolean =>
  assignment.flag || /^[a-z]+$/.test(assignment.key);

/** Not an assignment; no key of one starts before `skipTo`. */
export interface NotAnAssignment {
  readonly skipTo: number;
}

/** The assignment whose key holds the sensitive word at `[wordStart, wordEnd)`. */
export function readAssignment(
  text: string,
  wordStart: number,
  wordEnd: number,
  rightSide: number,
  context: RedactionContext,
): Assignment | NotAnAssignment {
  let keyStart = wordStart;
  const leftLimit = Math.max(0, wordStart - MAX_KEY_SIDE);
  while (keyStart > leftLimit) {
    const code = text.charCodeAt(keyStart - 1);
    if (!isKeyChar(code)) break;
    // Tested for its three letters only: a call per key character costs, until V8 optimises this.
    if ((code === 110 || code === 114 || code === 116) && isEscapedLineBreak(text, keyStart - 1)) break;
    keyStart -= 1;
  }
  let keyEnd = wordEnd;
  const rightLimit = Math.min(text.length, wordEnd + rightSide);
  while (keyEnd < rightLimit && isKeyChar(text.charCodeAt(keyEnd))) keyEnd += 1;
  context.steps += keyEnd - keyStart + 1;
  const before = codeAt(text, keyStart - 1);
  const keyStartsHere = keyStart === 0 || !isKeyChar(before) || isEscapedLineBreak(text, keyStart - 1);
  // A run of key characters longer than a key is no key at all: skip the whole run.
  if (!keyStartsHere || isKeyChar(codeAt(text, keyEnd))) {
    let runEnd = keyEnd;
    while (runEnd < text.length && isKeyChar(text.charCodeAt(runEnd))) runEnd += 1;
    context.steps += runEnd - keyEnd;
    return { skipTo: runEnd };
  }
  // "the token." ends a sentence; a key does not end with a dot.
  if (isReferenceSigil(before) || text.charCodeAt(keyEnd - 1) === 46) return { skipTo: keyEnd };
  const key = text.slice(keyStart, keyEnd);
  const inQuery = before === 63 || before === 38;
  const flag = text.charCodeAt(keyStart) === 45;
  const kind = kindOfAssignedKey(key, inQuery);
  if (kind === null) return { skipTo: keyEnd };

  let position = keyEnd;
  // The closing quote of a quoted key, escaped or not: `"token"`, `\"token\"`.
  let quoteEnd = position;
  while (codeAt(text, quoteEnd) === BACKSLASH) quoteEnd += 1;
  const afterQuotes = codeAt(text, quoteEnd);
  const quotedKey = afterQuotes === DOUBLE_QUOTE || afterQuotes === SINGLE_QUOTE;
  if (quotedKey) position = quoteEnd + 1;
  const blankStart = position;
  while (isBlank(codeAt(text, position))) position += 1;
  let form: AssignmentForm;
  const separator = codeAt(text, position);
  // `arn:aws:secretsmanager:…:secret:prod/db`: a field of a colon-separated id, not a key.
  if (separator === 58 && before === COLON && position === keyEnd) return { skipTo: keyEnd };
  if (isPathSeparator(before) && separator !== 61) return { skipTo: keyEnd };
  // `password://…` names a URL scheme, not a key.
  if (separator === 58 && text.startsWith("//", position + 1)) return { skipTo: keyEnd };
  if ((separator === 61 || separator === 58) && codeAt(text, position + 1) !== 61) {
    form = "explicit";
    position += 1;
    // `'secret_key' => '…'`: the hash arrow of PHP and Ruby.
    if (separator === 61 && codeAt(text, position) === 62) position += 1;
    while (isBlank(codeAt(text, position))) position += 1;
  } else if (quotedKey && isConfigEntry(text, keyStart, position)) {
    // `<add key="ClearTextPassword" value="…" />`: .NET and NuGet configuration entries.
    form = "explicit";
    // The value starts at its opening quote, as a quoted value does.
    position += CONFIG_VALUE.length - 1;
  } else if (quotedKey || position === blankStart) {
    return { skipTo: keyEnd };
  } else {
    // `--token value`: a flag's value is a value, not prose.
    form = flag ? "flag" : "bare";
  }
  context.steps += position - keyEnd + 1;
  // `read -p 'Password: ' DB_PASSWORD`: the quote after a prompt closes the prompt, it opens no value.
  const opening = codeAt(text, position);
  if (!quotedKey && (opening === SINGLE_QUOTE || opening === DOUBLE_QUOTE) && before === opening)
    return { skipTo: keyEnd };
  // The shell's `PWD=/home/alice` is a directory, not an ODBC `Pwd=`.
  if (key.length === 3 && /^pwd$/i.test(key) && isPathStart(opening)) return { skipTo: keyEnd };
  SCHEME.lastIndex = position;
  if (kind !== "registry-auth" && mayStartScheme(opening) && SCHEME.test(text)) {
    return { kind, keyEnd, valueStart: SCHEME.lastIndex, form: "after-scheme", inQuery: false, key, flag };
  }
  // `Authorization: Splunk <token>`, `Authorization: GenieKey <key>`: a provider's own scheme.
  // The word is kept and what follows is judged as a bare value, by its shape: a credential
  // (`Splunk 8ac8…`) is redacted, prose (`authorization: pending review`) is not.
  const schemeEnd =
    form === "explicit" && mayNameAuthorization(key)
      ? otherSchemeEnd(text, position, context.replacement)
      : -1;
  if (schemeEnd !== -1) {
    context.steps += schemeEnd - position;
    return { kind, keyEnd, valueStart: schemeEnd, form: "after-scheme", inQuery: false, key, flag };
  }
  return { kind, keyEnd, valueStart: position, form, inQuery, key, flag };
}

/**
 * Where the credential after a provider's own scheme at `position` starts, or -1: the word after
 * the scheme must be shaped like a credential, or the "scheme" is the value itself
 * (`Authorization: QWxhZGRpbjpvcGVu rejected`) or prose (`authorization: Pending review`).
 */
function otherSchemeEnd(text: string, position: number, replacement: string): number {
  OTHER_SCHEME.lastIndex = position;
  if (!OTHER_SCHEME.test(text)) return -1;
  const valueStart = OTHER_SCHEME.lastIndex;
  // Redacted already, or a reference (`GenieKey $OPSGENIE_KEY`): the scheme stays a scheme, and
  // the value after it is judged as a value.
  if (text.startsWith(replacement, valueStart) || isReferenceSigil(codeAt(text, valueStart)))
    return valueStart;
  SCHEME_VALUE.lastIndex = valueStart;
  const word = SCHEME_VALUE.exec(text);
  return word !== null && looksLikeCredential(word[0]) ? valueStart : -1;
}

/**
 * Values of sensitive keys in `key=value`, `key: value`, JSON `"key": "value"` (escaped
 * JSON too), CLI `--key value` and bare `key value` forms: the key is kept, the value
 * redacted; quotes around the value are kept.
 */
export function redactKeyAssignments(text: string, context: RedactionContext): string {
  const { flagCandidate, keyCandidate } = keyPatterns();
  // Every key holds a sensitive word, and a flag's value redacted leaves its key: a text without
  // one has none, told by the search both passes then go on with (it keeps its last answer).
  const words = sensitiveWords(text, context);
  if (words.next(0) === null) return text;
  const afterFlags = text.includes("-") ? redactCandidates(text, flagCandidate, words, context) : text;
  const wordsAfterFlags = afterFlags === text ? words : sensitiveWords(afterFlags, context);
  return redactCandidates(afterFlags, keyCandidate, wordsAfterFlags, context);
}

/**
 * For readAssignment, where the sensitive word of the key after a flag's dash at `afterDash - 1`
 * ends: with the key's last key character, unless the word is two (`--secret key value`).
 */
function flagWordEnd(text: string, afterDash: number): number {
  let runEnd = afterDash;
  const limit = Math.min(text.length, afterDash + MAX_FLAG_KEY);
  while (runEnd < limit && isKeyChar(text.charCodeAt(runEnd))) runEnd += 1;
  if (codeAt(text, runEnd) !== 32) return runEnd;
  if (!mayStartSecondWord(text.charCodeAt(runEnd + 1))) return runEnd;
  const { secondWord, flagKeyWord } = keyPatterns();
  secondWord.lastIndex = runEnd;
  if (!secondWord.test(text)) return runEnd;
  flagKeyWord.lastIndex = afterDash;
  return flagKeyWord.test(text) ? flagKeyWord.lastIndex : runEnd;
}

/**
 * Where the redaction of a secret value ends: at the value's end, or at the end of its run when
 * the value runs past MAX_CREDENTIAL_LENGTH right after its key (`token=…`, as
 * redactOverlongValues does near a run's start): a dump holds no context to keep.
 */
function redactedEnd(
  text: string,
  assignment: Assignment,
  value: ValueSpan,
  valueEnds: UnquotedValueEnds,
  context: RedactionContext,
  reach: Reach,
): number {
  // Only a value near the bound can have been cut by it.
  if (value.quoted || value.end - value.start < MAX_CREDENTIAL_LENGTH / 2) return value.end;
  for (let index = assignment.keyEnd; index < value.start; index += 1) {
    if (isWhitespace(text.charCodeAt(index))) return value.end;
  }
  const runEnd = valueEnds.endFrom(value.start, assignment.inQuery, context);
  reach.upTo = Math.max(reach.upTo, runEnd + 1);
  return runEnd - value.start > MAX_CREDENTIAL_LENGTH
    ? overlongValueEnd(text, value.start, runEnd)
    : value.end;
}

// How near a candidate must follow the last one for the search to go on without the word search.
const DENSE = 256;

// How far a step reads past a flag's dash, at most: the word search from the dash reads a
// sensitive word in reach of it (MAX_FLAG_WORD_START, MAX_WORD), flagCandidate and flagWordEnd the
// key after the dash and the look-ahead after that key.
const FLAG_READS = MAX_FLAG_WORD_START + MAX_WORD + MAX_FLAG_KEY + MAX_LOOKAHEAD;
// How far a step reads past a sensitive word's start, at most: the word search and the key pattern.
const WORD_READS = MAX_WORD + MAX_LOOKAHEAD;
// How far readAssignment reads past where it says a value starts, or past a key that is no key, at
// most: another scheme and the word after it, a replacement already there; a key's quote, its
// separator or the `value="` of a configuration entry (within MAX_LOOKAHEAD). Its runs of blanks
// and backslashes are RUNS_PAST_REACH's.
const ASSIGNMENT_READS = MAX_OTHER_SCHEME + MAX_SCHEME_VALUE + MAX_LOOKAHEAD;

/**
 * Judges the key at each match of `candidates` (a sensitive word, or a flag's dash). `words`, the
 * sensitive words of `text`, say where to try: a flag's dash in reach of one, else the word itself,
 * so a repeated stretch without one (`-H ` a million times) is skipped, not scanned.
 */
function redactCandidates(
  text: string,
  candidates: RegExp,
  words: WindowedSearch,
  context: RedactionContext,
): string {
  const rewriter = new Rewriter(text, context.replacement);
  const repeats = new RepeatSkipper(text, rewriter, context, RUNS_PAST_REACH);
  const valueEnds = new UnquotedValueEnds(text);
  // A flag's match is its dash and the key follows it.
  const flags = candidates === keyPatterns().flagCandidate ? new FlagDashes(text, words) : null;
  const rightSide = flags ? MAX_FLAG_KEY : MAX_KEY_SIDE;
  const { keyCandidateAt } = keyPatterns();
  // Whether the last candidate was near where its search started: then the next one is searched
  // for directly, as the word search first would cost a second search per candidate.
  let dense = false;
  let examinedUpTo = 0;
  // How far the last step read, for the repeat skipper: it judges one by one only the last steps of
  // a repetition, whose reads could leave it. Its default, a value's bound and more (6 Ki
  // characters), left hundreds of flags to judge at the end of `--pwd ` repeated, each slow before
  // V8 optimises this loop: more than the rest of the megabyte cost.
  const reach: Reach = { upTo: 0 };
  candidates.lastIndex = 0;
  for (;;) {
    // No key starts inside one already judged (a run of key characters too long for a key, the
    // key of a value that is kept): the search resumes after it, not at each word inside it.
    if (candidates.lastIndex < examinedUpTo) candidates.lastIndex = examinedUpTo;
    const resume = repeats.resume(candidates.lastIndex, examinedUpTo, reach.upTo);
    examinedUpTo += resume - candidates.lastIndex;
    candidates.lastIndex = resume;
    let wordStart: number;
    let wordEnd: number;
    if (flags) {
      wordStart = flags.next(candidates.lastIndex);
      if (wordStart === -1) break;
      candidates.lastIndex = wordStart + 1;
      reach.upTo = wordStart + FLAG_READS;
      wordEnd = flagWordEnd(text, candidates.lastIndex);
    } else {
      const from = candidates.lastIndex;
      if (dense) {
        const word = candidates.exec(text);
        if (word === null) break;
        wordStart = word.index;
        wordEnd = candidates.lastIndex;
        reach.upTo = wordStart + WORD_READS;
      } else {
        const next = words.next(from);
        if (next === null) break;
        // The key pattern is tried at the word only: from there, a native search would read on
        // through every word that is no key (`pwd pwd …`, a million of them), where a step per
        // word lets the repeat skipper skip them. A word that is no key's start moves the scan on
        // by one character: a later word may start inside it (` key` of `secret key`).
        keyCandidateAt.lastIndex = next.index;
        reach.upTo = next.index + WORD_READS;
        if (!mayFollowKeyWord(text, next.end) || !keyCandidateAt.test(text)) {
          context.steps += 1;
          candidates.lastIndex = next.index + 1;
          continue;
        }
        wordStart = next.index;
        wordEnd = keyCandidateAt.lastIndex;
        candidates.lastIndex = wordEnd;
      }
      dense = wordStart - from <= DENSE;
    }
    context.steps += 1;
    // A later word of a key already judged (`client_secret_token`) adds nothing.
    if (wordStart < examinedUpTo) continue;
    // The commonest shape first, in one match; every other is read step by step.
    const keyStart = flags ? wordStart : plainKeyStart(text, wordStart);
    const plain =
      keyStart === -1 ? null : readPlain(text, keyStart, wordEnd, rightSide, context, flags !== null);
    const assignment = plain ?? readAssignment(text, wordStart, wordEnd, rightSide, context);
    if ("skipTo" in assignment) {
      // Comparisons, not Math.max: a call per step costs, until V8 optimises this loop.
      if (assignment.skipTo + ASSIGNMENT_READS > reach.upTo)
        reach.upTo = assignment.skipTo + ASSIGNMENT_READS;
      examinedUpTo = assignment.skipTo;
      continue;
    }
    examinedUpTo = assignment.keyEnd;
    // The fast path's answer, when it gave one, holds the value it read.
    const value =
      plain !== null && "value" in plain
        ? plain.value
        : readValue(text, assignment.valueStart, assignment.inQuery, context, valueEnds);
    const valueReach = assignment.valueStart + ASSIGNMENT_READS + context.replacement.length;
    if (valueReach > reach.upTo) reach.upTo = valueReach;
    if (value.readEnd > reach.upTo) reach.upTo = value.readEnd;
    const secret =
      isSecretValue(assignment.kind, assignment.form, value, context.replacement) &&
      !(!value.quoted && namesASecret(value.text) && isCommandLike(assignment));
    if (secret) {
      const end = redactedEnd(text, assignment, value, valueEnds, context, reach);
      rewriter.replace(value.start, end);
      candidates.lastIndex = Math.max(end, wordEnd);
      examinedUpTo = candidates.lastIndex;
    }
    // The same key again right after its value (`key=1&key=2&…`): judged in one loop.
    const run =
      flags === null && plain !== null && "value" in plain
        ? judgeKeysInRun(text, plain, keyStart, secret, rewriter, context)
        : null;
    if (run !== null) {
      candidates.lastIndex = run.resumeAt;
      examinedUpTo = run.examinedUpTo;
      reach.upTo = run.valueStart + ASSIGNMENT_READS + context.replacement.length;
      dense = true;
    }
  }
  return rewriter.finish();
}
