// One key assignment read around a sensitive word: its key, kind and form, and where its value
// starts, or that it is none. The key-assignment rule reads each candidate with it; the overlong
// values rule reads the key before a long value with it too.

import {
  BACKSLASH,
  codeAt,
  DOUBLE_QUOTE,
  isBlank,
  isKeyChar,
  KEY_CHARS,
  SINGLE_QUOTE,
} from "../char-classes.js";
import { type KeyKind, kindOfAssignedKey, mayNameAuthorization } from "../key-names.js";
import type { RedactionContext } from "../redaction-context.js";
import { type AssignmentForm, looksLikeCredential } from "../secret-values.js";
import {
  COLON,
  isPathSeparator,
  isPathStart,
  isReferenceSigil,
  mayStartScheme,
  SCHEME_NAMES,
} from "./assignment-chars.js";
import { MAX_KEY_SIDE } from "./key-candidates.js";

const SCHEME = new RegExp(`(?:${SCHEME_NAMES.join("|")})[ \\t]+`, "iy");
// Any other scheme: a capitalised word of letters (`Splunk`, `GenieKey`, `Klaviyo-API-Key`) and
// blanks, when the word after it is shaped like a credential (see otherSchemeEnd).
const OTHER_SCHEME = /[A-Z][A-Za-z-]{1,39}[ \t]{1,8}/y;
export const MAX_OTHER_SCHEME = 1 + 39 + 8;
// The word after it, read at most this far: enough to judge its shape.
export const MAX_SCHEME_VALUE = 256;
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

/**
 * Where readAssignment's key starts, from plainKeyStart's answer `plainStart` (not -1) for the word
 * at `wordStart`: the same but after a line break or tab written out (`\ntoken`), whose letter
 * plainKeyStart reads into the key (only at the key's start: a backslash is no key character).
 */
export const keyStartFromPlain = (text: string, plainStart: number, wordStart: number): number =>
  plainStart < wordStart && isEscapedLineBreak(text, plainStart) ? plainStart + 1 : plainStart;

/**
 * The assignment whose key holds the sensitive word at `[wordStart, wordEnd)`. `plainStart`, where
 * plainKeyStart puts the key's start (-1: not known), spares reading it again by hand: a key the
 * fast path declines was read up to here once already.
 */
export function readAssignment(
  text: string,
  wordStart: number,
  wordEnd: number,
  rightSide: number,
  context: RedactionContext,
  plainStart = -1,
): Assignment | NotAnAssignment {
  let keyStart = wordStart;
  const leftLimit = Math.max(0, wordStart - MAX_KEY_SIDE);
  if (plainStart !== -1) keyStart = keyStartFromPlain(text, plainStart, wordStart);
  else
    while (keyStart > leftLimit) {
      const code = text.charCodeAt(keyStart - 1);
      if (!isKeyChar(code)) break;
      // Tested for its three letters only: a call per key character costs, until V8 optimises this.
      if ((code === 110 || code === 114 || code === 116) && isEscapedLineBreak(text, keyStart - 1)) break;
      keyStart -= 1;
    }
  let keyEnd = wordEnd;
  const rightLimit = Math.min(text.length, wordEnd + rightSide);
  while (keyEnd < rightLimit && KEY_CHARS[text.charCodeAt(keyEnd)] === 1) keyEnd += 1;
  context.steps += keyEnd - keyStart + 1;
  const before = codeAt(text, keyStart - 1);
  const keyStartsHere = keyStart === 0 || !isKeyChar(before) || isEscapedLineBreak(text, keyStart - 1);
  // A run of key characters longer than a key is no key at all: skip the whole run.
  if (!keyStartsHere || isKeyChar(codeAt(text, keyEnd))) {
    let runEnd = keyEnd;
    while (runEnd < text.length && KEY_CHARS[text.charCodeAt(runEnd)] === 1) runEnd += 1;
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
