import { redactSecrets } from "@paperclipai/errors";
import { redactDiagnosticText } from "upstream-adapter-utils/command-redaction";
import { redactSecrets as previousRedactSecrets } from "./previous-redact-secrets.js";

/** The three redactors measured side by side, by the column they fill in the report. */
export const REDACTORS = {
  ours: (text: string): string => redactSecrets(text),
  upstream: (text: string): string => redactDiagnosticText(text),
  previous: (text: string): string => previousRedactSecrets(text),
} as const;

export type RedactorName = keyof typeof REDACTORS;
