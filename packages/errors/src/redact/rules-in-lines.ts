import { AlphabetGate, MIN_GATED_LENGTH, type Triggers } from "./alphabet-gate.js";
import type { RedactionContext, RedactionRule } from "./redaction-context.js";
import { AUTH_SCHEME_TRIGGERS, redactAuthSchemes } from "./rules/auth-schemes.js";
import { redactCliUserPasswords } from "./rules/cli-user-passwords.js";
import { redactKeyAssignments } from "./rules/key-assignments.js";
import { KEY_WORD_TRIGGERS } from "./rules/key-candidates.js";
import { redactOverlongValues } from "./rules/overlong-values.js";
import { redactTokenFormats, TOKEN_PREFIX_TRIGGERS } from "./rules/token-formats-rule.js";
import { redactUrlCredentials } from "./rules/url-credentials.js";
import { redactWebhookUrls } from "./rules/webhook-urls.js";

interface InLinesRule {
  readonly redact: RedactionRule;
  /**
   * What every finding of the rule holds: a text whose alphabet cannot spell any is left to the
   * next rule unsearched. The rules without search first for a single string of their own.
   */
  readonly triggers?: Triggers;
}

// After the PEM blocks, secrets recognised by their own shape, then by the key before them. A
// key's value that runs past its bound goes first: what it removes, no other rule reads.
const RULES: readonly InLinesRule[] = [
  { redact: redactOverlongValues },
  { redact: redactWebhookUrls },
  { redact: redactUrlCredentials },
  { redact: redactCliUserPasswords },
  { redact: redactTokenFormats, triggers: TOKEN_PREFIX_TRIGGERS },
  { redact: redactAuthSchemes, triggers: AUTH_SCHEME_TRIGGERS },
  { redact: redactKeyAssignments, triggers: KEY_WORD_TRIGGERS },
];

/**
 * Every rule but the PEM blocks', in order. None reads across a line break, except an escaped
 * quote left open (a value runs to its bound), which sets `context.readToEnd` when it meets the
 * end of `text`.
 */
export function redactInLines(text: string, context: RedactionContext): string {
  const gate = text.length < MIN_GATED_LENGTH ? null : new AlphabetGate(text, context.replacement);
  let result = text;
  for (const { redact, triggers } of RULES) {
    if (triggers !== undefined && gate !== null && !gate.mayHold(triggers)) continue;
    const redacted = redact(result, context);
    if (redacted !== result) gate?.replaced();
    result = redacted;
  }
  return result;
}
