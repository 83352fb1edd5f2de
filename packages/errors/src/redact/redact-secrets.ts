import { pieceEnd } from "./line-pieces.js";
import type { RedactionContext } from "./redaction-context.js";
import { redactPemPrivateKeys } from "./rules/pem-private-keys.js";
import { redactInLines } from "./rules-in-lines.js";

export const REDACTED = "[REDACTED]";
export { MAX_CREDENTIAL_LENGTH } from "./read-value.js";

export interface RedactOptions {
  /** The text that replaces a secret. Defaults to `[REDACTED]`. */
  readonly replacement?: string;
}

/** `redactSecrets` that also reports the work done, for the linear-time tests. */
export function redactSecretsCounted(
  text: string,
  options: RedactOptions = {},
): { text: string; steps: number } {
  const context: RedactionContext = { replacement: options.replacement ?? REDACTED, steps: 0 };
  // PEM blocks span lines, so they go first and from the whole text. No other rule reads across
  // a line break except for an escaped quote left open, which says so (readToEnd): the rest run
  // on pieces that end at line breaks, with the result they have on the whole text, and are far
  // cheaper to rewrite (PIECE_LENGTH says why). A piece whose read ran into its end is redone
  // with the rest of the text.
  const blocksGone = redactPemPrivateKeys(text, context);
  let result = "";
  let changed = false;
  for (let start = 0, end = 0; start < blocksGone.length; start = end) {
    end = pieceEnd(blocksGone, start);
    context.readToEnd = false;
    let piece = blocksGone.slice(start, end);
    let redacted = redactInLines(piece, context);
    if (context.readToEnd && end < blocksGone.length) {
      end = blocksGone.length;
      piece = blocksGone.slice(start);
      redacted = redactInLines(piece, context);
    }
    // A rule that redacts nothing returns its input: then so does this, not a rope of pieces.
    changed ||= redacted !== piece;
    result += redacted;
  }
  return { text: changed ? result : blocksGone, steps: context.steps };
}

/**
 * Replaces secrets in free text with `[REDACTED]`: PEM private keys, provider tokens by
 * their published prefixes and shapes (`sk-`, `ghp_`, `AKIA`, `xoxb-`, `glpat-`, JWTs, …),
 * webhook URLs, passwords inside URLs and connection strings, `Bearer`/`Basic` credentials
 * (the scheme is kept) and the values of sensitive keys (`password=…`, `"api_key": "…"`,
 * escaped JSON, `--token …`, `OPENAI_API_KEY …`; the key is kept). Counts, enum words,
 * flags, digests, ids and prose are left unchanged. Linear in the length of `text`.
 * Redact before truncating, never after: a cut can leave half a secret behind.
 */
export function redactSecrets(text: string, options: RedactOptions = {}): string {
  return redactSecretsCounted(text, options).text;
}
