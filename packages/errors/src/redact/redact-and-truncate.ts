import { type RedactOptions, redactSecrets } from "./redact-secrets.js";
import { type TruncatedText, truncateUtf8 } from "./truncate-utf8.js";

export interface RedactAndTruncateOptions extends RedactOptions {
  /** Appended when the text is cut. Defaults to `…[truncated]`. */
  readonly suffix?: string;
}

/** Redacts secrets, then bounds the result to `maxBytes` of UTF-8: never the other way round. */
export function redactAndTruncate(
  text: string,
  maxBytes: number,
  options: RedactAndTruncateOptions = {},
): TruncatedText {
  return truncateUtf8(redactSecrets(text, options), maxBytes, options.suffix);
}
