import { kindOfKey } from "./key-names.js";
import { REDACTED, redactSecrets } from "./redact-secrets.js";
import { isSecretValue } from "./secret-values.js";

// `Authorization: Basic …`: the scheme says how to read the credential and is kept, as in text.
const SCHEME = /^(?:Bearer|Basic|Token|Digest|Bot|Negotiate|SSWS)[ \t]+(?=\S)/i;

/**
 * The value of a structured field (a `details` entry, a header), judged as `"key":"value"` would
 * be in text: a value under a key that names a secret (`password`, `apiKey`, `Authorization`,
 * `Cookie`) is redacted whole, unless it says there is none or is prose (`token: "expired"`);
 * any other value is redacted like free text. Without this, `{ password: "hunter2" }` kept its
 * value: the text rules see a key only when it is written next to its value.
 */
export function redactKeyedValue(key: string | undefined, value: string): string {
  if (key !== undefined && value.length > 0) {
    const kind = kindOfKey(key);
    if (
      kind !== null &&
      isSecretValue(
        kind,
        "explicit",
        { start: 0, end: value.length, text: value, quoted: true, readEnd: value.length },
        REDACTED,
      )
    ) {
      return `${SCHEME.exec(value)?.[0] ?? ""}${REDACTED}`;
    }
  }
  return redactSecrets(value);
}
