import { redactSecrets, TRUNCATION_SUFFIX, truncateUtf8 } from "@paperclipai/errors";

/** The most bytes of UTF-8 a persisted diagnostic holds, suffix included. */
export const DIAGNOSTIC_BYTE_LIMIT = 65_536;

/** Appended when a diagnostic is cut: U+2026 then `[truncated]`, 14 bytes. */
export const DIAGNOSTIC_TRUNCATION_SUFFIX = TRUNCATION_SUFFIX;

/**
 * The text a diagnostic may hold: secrets redacted first, then cut to at most
 * 65 536 bytes of UTF-8 at a character boundary, ending `…[truncated]` when cut.
 * Always well-formed UTF-8. Upstream cut first, which could leave the head
 * of a secret in front of the cut where no rule recognises it any more.
 */
export function boundedRedactedDiagnostic(message: string): string {
  return truncateUtf8(redactSecrets(message), DIAGNOSTIC_BYTE_LIMIT, DIAGNOSTIC_TRUNCATION_SUFFIX).text;
}
