import type { RedactionContext, RedactionRule } from "./redaction-context.js";
import { redactAuthSchemes } from "./rules/auth-schemes.js";
import { redactCliUserPasswords } from "./rules/cli-user-passwords.js";
import { redactKeyAssignments } from "./rules/key-assignments.js";
import { redactOverlongValues } from "./rules/overlong-values.js";
import { redactTokenFormats } from "./rules/token-formats-rule.js";
import { redactUrlCredentials } from "./rules/url-credentials.js";
import { redactWebhookUrls } from "./rules/webhook-urls.js";

// After the PEM blocks, secrets recognised by their own shape, then by the key before them. A
// key's value that runs past its bound goes first: what it removes, no other rule reads.
const RULES: readonly RedactionRule[] = [
  redactOverlongValues,
  redactWebhookUrls,
  redactUrlCredentials,
  redactCliUserPasswords,
  redactTokenFormats,
  redactAuthSchemes,
  redactKeyAssignments,
];

/**
 * Every rule but the PEM blocks', in order. None reads across a line break, except an escaped
 * quote left open (a value runs to its bound), which sets `context.readToEnd` when it meets the
 * end of `text`.
 */
export function redactInLines(text: string, context: RedactionContext): string {
  let result = text;
  for (const rule of RULES) result = rule(result, context);
  return result;
}
