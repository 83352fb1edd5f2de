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
const OPENAI_STYLE_TOKEN = new RegExp(`(?<![${TOKEN}])sk-[${TOKEN}]{12,}`, "g");
const GITHUB_TOKEN = new RegExp(`(?<![${NAME}])(?:ghp_|gho_|ghu_|ghs_|ghr_|github_pat_)[${NAME}]{20,}`, "g");
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

const SENSITIVE_WORD =
  "authorization|api[ _-]?key|apikey|cookie|credential|jwt|password|passwd|private[ _-]?key|secret|ticket|token|connection[ _-]?string";
// key, then one of: `"key": "value"`, `key=value`, `key: value`, `--key value`, `key value`.
const KEY_ASSIGNMENT = new RegExp(
  `(?<![${NAME}])(--?)?([${NAME}.\\-]*(?:${SENSITIVE_WORD})[${NAME}.\\-]*)("?)([ \\t]*[=:][ \\t]*|[ \\t]+)`,
  "gi",
);
const SCHEME_PREFIX = /^(?:Bearer|Basic|Digest|Token|Negotiate)[ \t]+/i;
const PLAIN_WORD = /^[A-Za-z]+$/;

function replaceAll(text: string, pattern: RegExp, replacement: string): string {
  return text.replace(pattern, replacement);
}

function redactAuthSchemes(text: string, replacement: string): string {
  return text.replace(AUTH_SCHEME, (match, scheme: string, space: string, value: string) => {
    const prose = scheme === scheme.toLowerCase() && PLAIN_WORD.test(value.replace(/\.+$/, ""));
    return prose || value === replacement ? match : `${scheme}${space}${replacement}`;
  });
}

/** Reads a value starting at `start`: a JSON string when quoted, else up to whitespace, `;` or `,`. */
function readValue(text: string, start: number): { end: number; quoted: boolean } {
  if (text[start] === '"') {
    let index = start + 1;
    const limit = Math.min(text.length, start + MAX_CREDENTIAL_LENGTH);
    while (index < limit && text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
    return { end: Math.min(index + 1, text.length), quoted: true };
  }
  let index = start;
  const limit = Math.min(text.length, start + MAX_CREDENTIAL_LENGTH);
  while (index < limit && !/[\s;,]/.test(text[index] as string)) index += 1;
  return { end: index, quoted: false };
}

function redactKeyAssignments(text: string, replacement: string): string {
  let output = "";
  let copiedUpTo = 0;
  KEY_ASSIGNMENT.lastIndex = 0;
  for (let match = KEY_ASSIGNMENT.exec(text); match !== null; match = KEY_ASSIGNMENT.exec(text)) {
    const [whole, dashes, , keyQuote, separator] = match as unknown as [
      string,
      string | undefined,
      string,
      string,
      string,
    ];
    const keyEnd = match.index + whole.length;
    let valueStart = keyEnd;
    const scheme = SCHEME_PREFIX.exec(text.slice(valueStart, valueStart + 16));
    if (scheme) valueStart += scheme[0].length;
    const { end, quoted } = readValue(text, valueStart);
    const value = text.slice(valueStart, end);
    const explicit = separator.trim() !== "" || Boolean(dashes) || keyQuote === '"' || scheme !== null;
    const looksSecret = quoted || !PLAIN_WORD.test(value);
    const alreadyRedacted = value.startsWith(replacement) || value === `"${replacement}"`;
    if (value.length === 0 || alreadyRedacted || (!explicit && !looksSecret)) {
      // Not a secret: rescan right after the key, so "secret token abc123" still finds "token abc123".
      KEY_ASSIGNMENT.lastIndex = match.index + Math.max(1, whole.length - separator.length);
      continue;
    }
    output += text.slice(copiedUpTo, valueStart) + (quoted ? `"${replacement}"` : replacement);
    copiedUpTo = end;
    KEY_ASSIGNMENT.lastIndex = Math.max(end, keyEnd);
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
  let result = replaceAll(text, PEM_PRIVATE_KEY, replacement);
  result = replaceAll(result, JWT, replacement);
  result = replaceAll(result, OPENAI_STYLE_TOKEN, replacement);
  result = replaceAll(result, GITHUB_TOKEN, replacement);
  result = redactAuthSchemes(result, replacement);
  return redactKeyAssignments(result, replacement);
}
