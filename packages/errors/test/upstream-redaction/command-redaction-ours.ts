// Stands in for upstream's `./command-redaction.js` when upstream's test file runs: the same
// two exports, answered by our redactor and our marker.
import { REDACTED, redactSecrets } from "../../src/redact/redact-secrets.js";

export const REDACTED_COMMAND_TEXT_VALUE = REDACTED;

export function redactDiagnosticText(text: string, replacement?: string): string {
  return redactSecrets(text, replacement === undefined ? {} : { replacement });
}
