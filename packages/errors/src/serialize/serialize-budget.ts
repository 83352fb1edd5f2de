import { redactSecrets } from "../redact/redact-secrets.js";
import { TRUNCATION_SUFFIX, truncateUtf8 } from "../redact/truncate-utf8.js";

/** The text of a value left out because a bound was reached. */
export const TRUNCATED = "[Truncated]";

/** At most this many UTF-8 bytes of one string (a message, a detail) are kept: the runner's diagnostic bound. */
export const MAX_STRING_BYTES = 64 * 1024;
/** The serialized JSON of one error, causes and details included, is kept to about this many characters. */
export const MAX_OUTPUT_CHARS = 1024 * 1024;
/**
 * A string is read (and redacted) up to this many characters. Far past MAX_STRING_BYTES on purpose:
 * no redaction rule looks further ahead than one 96 Ki-character piece, so what is kept of the
 * string is redacted exactly as if the whole string had been read.
 */
export const MAX_STRING_READ = 1024 * 1024;
/**
 * Characters read plus keys listed, over one serialization: a cap on the work that does not
 * show in the output (a 100 MB string redacted to a few words, a million keys behind a bound).
 */
export const MAX_WORK = 16 * 1024 * 1024;

/**
 * What one `serializeError` (or `deserializeError`) call may still spend. Every string, key and
 * value draws on it, so shared references (the same object under many keys, the same error in
 * many `AggregateError`s) cost what they would cost written out, and the total stays bounded.
 */
export class SerializeBudget {
  #output = MAX_OUTPUT_CHARS;
  #work = MAX_WORK;

  get exhausted(): boolean {
    return this.#output <= 0 || this.#work <= 0;
  }

  /** Charges one value's `chars` of JSON (and the listing of `keys` keys); false once nothing is left. */
  takeValue(keys = 0, chars = 4): boolean {
    if (this.exhausted) return false;
    this.#output -= chars;
    this.#work -= 1 + keys;
    return true;
  }

  /** Redacts `text` (read up to MAX_STRING_READ), then cuts it to what is left: redaction first, never after. */
  text(text: string, redact: (text: string) => string = redactSecrets): string {
    if (this.exhausted) return TRUNCATED;
    const read = text.length > MAX_STRING_READ ? text.slice(0, MAX_STRING_READ) : text;
    this.#work -= read.length;
    const redacted = redact(read);
    const limit = Math.min(MAX_STRING_BYTES, Math.max(this.#output, 0));
    let kept: string;
    // A UTF-16 unit is at most 3 UTF-8 bytes: below a third of the limit, no cut can be needed.
    if (redacted.length * 3 <= limit && read === text) kept = redacted;
    else {
      const cut = truncateUtf8(redacted, limit);
      // A string read only in part says so even when its redacted part fits.
      kept =
        cut.truncated || read === text ? cut.text : truncateUtf8(redacted + TRUNCATION_SUFFIX, limit).text;
    }
    this.#output -= kept.length + 2;
    return kept;
  }
}
