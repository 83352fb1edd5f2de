import type { RedactionContext, RedactionRule } from "./redaction-context.js";
import { redactAuthSchemes } from "./rules/auth-schemes.js";
import { redactCliUserPasswords } from "./rules/cli-user-passwords.js";
import { redactKeyAssignments } from "./rules/key-assignments.js";
import { redactOverlongValues } from "./rules/overlong-values.js";
import { redactPemPrivateKeys } from "./rules/pem-private-keys.js";
import { redactTokenFormats } from "./rules/token-formats-rule.js";
import { redactUrlCredentials } from "./rules/url-credentials.js";
import { redactWebhookUrls } from "./rules/webhook-urls.js";

export const REDACTED = "[REDACTED]";
export { MAX_CREDENTIAL_LENGTH } from "./values.js";

export interface RedactOptions {
  /** The text that replaces a secret. Defaults to `[REDACTED]`. */
  readonly replacement?: string;
}

// Whole blocks first, then secrets recognised by their own shape, then by the key before them.
// A key's value that runs past its bound goes right after the blocks: what it removes, no other
// rule reads.
const RULES: readonly RedactionRule[] = [
  redactPemPrivateKeys,
  redactOverlongValues,
  redactWebhookUrls,
  redactUrlCredentials,
  redactCliUserPasswords,
  redactTokenFormats,
  redactAuthSchemes,
  redactKeyAssignments,
];

/** `redactSecrets` that also reports the work done, for the linear-time tests. */
export function redactSecretsCounted(
  text: string,
  options: RedactOptions = {},
): { text: string; steps: number } {
  const context: RedactionContext = { replacement: options.replacement ?? REDACTED, steps: 0 };
  let result = text;
  for (const rule of RULES) result = rule(result, context);
  return { text: result, steps: context.steps };
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
