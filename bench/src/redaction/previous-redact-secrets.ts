// A frozen copy of @paperclipai/errors redactSecrets as it was before issue 14 (commit 35a3393),
// kept only as the benchmark baseline ("previous version"). Do not change it.
export const REDACTED = "[REDACTED]";

export interface RedactOptions {
  /** The text that replaces a secret. Defaults to `[REDACTED]`. */
  readonly replacement?: string;
}

// A "name character" is one that can continue an identifier or a token, so a
// prefix preceded by one is the middle of a word, not the start of a token.
const NAME = "A-Za-z0-9_";
const TOKEN = "A-Za-z0-9_\\-";

const PEM_PRIVATE_KEY =
  /-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END ([A-Z0-9]+ )*PRIVATE KEY-----|$)/g;
const OPENAI_STYLE_TOKEN = new RegExp(`(?<![${NAME}])sk-[${TOKEN}]{12,}`, "g");
const GITHUB_TOKEN = new RegExp(`(?<![${NAME}])(?:ghp_|gho_|ghu_|ghs_|ghr_|github_pat_)[${NAME}]{20,}`, "g");
// Unlike the prefixes above, a JWT must start a whole token run: a start after `-` would let
// every `-eyJ` of a long run rescan the rest of it (quadratic time).
const JWT = new RegExp(
  `(?<![${TOKEN}.])eyJ[${TOKEN}]{5,}(?:\\.[${TOKEN}]{8,}){2}(?:(?:\\.[${TOKEN}]{8,}){2})?(?![${TOKEN}])`,
  "g",
);
// Longer runs are noise (a dump, a repeated byte), not one credential: redacting
// past this would swallow the rest of a diagnostic.
export const MAX_CREDENTIAL_LENGTH = 4096;

// A credential after an auth scheme: the scheme is kept. Lowercase prose such as
// "bearer authentication" is left alone; "Bearer abc…" or any value with a digit
// or symbol is a credential.
const AUTH_SCHEME = new RegExp(
  `\\b(Bearer|Basic|bearer|basic|BEARER|BASIC)([ \\t]+)([A-Za-z0-9._~+/=-]{6,${MAX_CREDENTIAL_LENGTH}})`,
  "g",
);

// Sensitive words inside a key name: `OPENAI_API_KEY`, `proxyAuthorization`, `--token`.
const SENSITIVE_WORD =
  /authorization|api[ _-]?key|apikey|cookie|credential|jwt|password|passwd|private[ _-]?key|secret|ticket|token|connection[ _-]?string/gi;
const KEY_CHAR = /[A-Za-z0-9_.-]/;
// A key is a bounded identifier around a sensitive word; scanning outwards by hand
// (instead of one regex with open `*` on both sides) keeps redaction linear in the input.
const MAX_KEY_SIDE = 64;
const SCHEME_PREFIX = /^(?:Bearer|Basic|Digest|Token|Negotiate)[ \t]+/i;
const PLAIN_WORD = /^[A-Za-z]+$/;
const isKeyChar = (char: string | undefined): boolean => char !== undefined && KEY_CHAR.test(char);
const isBlank = (char: string | undefined): boolean => char === " " || char === "\t";

function redactAuthSchemes(text: string, replacement: string): string {
  return text.replace(AUTH_SCHEME, (match, scheme: string, space: string, value: string) => {
    const prose = scheme === scheme.toLowerCase() && PLAIN_WORD.test(value.replace(/\.+$/, ""));
    return prose || value === replacement ? match : `${scheme}${space}${replacement}`;
  });
}

/** Reads a value starting at `start`: a JSON string when quoted, else up to whitespace, `;` or `,`. */
function readValue(text: string, start: number): { end: number; quoted: boolean } {
  const limit = Math.min(text.length, start + MAX_CREDENTIAL_LENGTH);
  if (text[start] === '"') {
    let index = start + 1;
    while (index < limit && text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
    return { end: Math.min(index + 1, text.length), quoted: true };
  }
  let index = start;
  while (index < limit && !/[\s;,]/.test(text[index] as string)) index += 1;
  return { end: index, quoted: false };
}

interface KeyAssignment {
  /** Where the value starts (after the separator and any auth scheme). */
  readonly valueStart: number;
  /** `=`, `:`, a JSON key quote, `--flag` or an auth scheme: the value is a value, never prose. */
  readonly explicit: boolean;
}

/** The key around a sensitive word at `[wordStart, wordEnd)` and its separator, or null when it is none. */
function readKeyAssignment(text: string, wordStart: number, wordEnd: number): KeyAssignment | null {
  let keyStart = wordStart;
  const leftLimit = Math.max(0, wordStart - MAX_KEY_SIDE);
  while (keyStart > leftLimit && isKeyChar(text[keyStart - 1])) keyStart -= 1;
  let keyEnd = wordEnd;
  const rightLimit = Math.min(text.length, wordEnd + MAX_KEY_SIDE);
  while (keyEnd < rightLimit && isKeyChar(text[keyEnd])) keyEnd += 1;
  if (isKeyChar(text[keyStart - 1]) || isKeyChar(text[keyEnd])) return null;
  let position = keyEnd;
  const quotedKey = text[position] === '"';
  if (quotedKey) position += 1;
  const blankStart = position;
  while (isBlank(text[position])) position += 1;
  let explicit = quotedKey || text[keyStart] === "-";
  if (text[position] === "=" || text[position] === ":") {
    explicit = true;
    position += 1;
    while (isBlank(text[position])) position += 1;
  } else if (position === blankStart) {
    return null;
  }
  const scheme = SCHEME_PREFIX.exec(text.slice(position, position + 16));
  if (scheme) return { valueStart: position + scheme[0].length, explicit: true };
  return { valueStart: position, explicit };
}

// In the bare `key value` form, only a value that looks like a credential counts:
// "secret manager" and "Unexpected token } in JSON" are prose.
function looksLikeCredential(value: string): boolean {
  return value.length >= 4 && /[A-Za-z0-9]/.test(value) && !PLAIN_WORD.test(value);
}

function redactKeyAssignments(text: string, replacement: string): string {
  let output = "";
  let copiedUpTo = 0;
  SENSITIVE_WORD.lastIndex = 0;
  for (let word = SENSITIVE_WORD.exec(text); word !== null; word = SENSITIVE_WORD.exec(text)) {
    const wordEnd = word.index + word[0].length;
    const assignment = readKeyAssignment(text, word.index, wordEnd);
    if (assignment === null) continue;
    const { end, quoted } = readValue(text, assignment.valueStart);
    const value = text.slice(assignment.valueStart, end);
    const alreadyRedacted = value.startsWith(replacement) || value === `"${replacement}"`;
    const secret = quoted || (assignment.explicit ? value.length > 0 : looksLikeCredential(value));
    // Not a secret: the scan goes on right after this word, so "secret token abc123" still finds "token abc123".
    if (alreadyRedacted || !secret) continue;
    output += text.slice(copiedUpTo, assignment.valueStart) + (quoted ? `"${replacement}"` : replacement);
    copiedUpTo = end;
    SENSITIVE_WORD.lastIndex = Math.max(end, wordEnd);
  }
  return output + text.slice(copiedUpTo);
}

/**
 * Replaces secrets in free text with `[REDACTED]`: PEM private keys, `sk-` and
 * GitHub tokens, JWTs, `Bearer`/`Basic` credentials (the scheme is kept) and the
 * values of sensitive keys (`password=…`, `"api_key": "…"`, `--token …`,
 * `OPENAI_API_KEY …`; the key is kept). Ordinary prose is left unchanged.
 * Redact before truncating, never after: a cut can leave half a secret behind.
 */
export function redactSecrets(text: string, options: RedactOptions = {}): string {
  const replacement = options.replacement ?? REDACTED;
  let result = text.replace(PEM_PRIVATE_KEY, replacement);
  result = result.replace(JWT, replacement);
  result = result.replace(OPENAI_STYLE_TOKEN, replacement);
  result = result.replace(GITHUB_TOKEN, replacement);
  result = redactAuthSchemes(result, replacement);
  return redactKeyAssignments(result, replacement);
}
