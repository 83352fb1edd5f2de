import { fake } from "../redaction-corpus/fake-credentials.js";

// Secret shapes that public scanners know, held out of the labelled corpus: one entry per rule
// of gitleaks' default config (config/gitleaks.toml) and per widely used trufflehog detector,
// by its published prefix, alphabet and length. Every value is synthetic and built at run time
// from parts, so no literal in this file looks like a live credential to a push-protection scan.

export interface ScannerShape {
  readonly scanner: "gitleaks" | "trufflehog";
  readonly rule: string;
  /** The whole line as it would appear in a log; every one of `secrets` must be gone. */
  readonly text: string;
  readonly secrets: readonly string[];
}

export const LOWER_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
export const UPPER_HEX = "0123456789ABCDEF";
export const DIGITS = "0123456789";
// Crockford-style base32 of age keys (no B, I, O, 1 after the prefix).
export const AGE = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L";
export const join = (...parts: string[]): string => parts.join("");
export const uuid = (alphabet: string): string =>
  [8, 4, 4, 4, 12].map((length) => fake(alphabet, length)).join("-");

/** A bare token in a log line, with no key before it: found by its shape alone. */
export const bare = (scanner: ScannerShape["scanner"], rule: string, secret: string): ScannerShape => ({
  scanner,
  rule,
  text: `request failed using ${secret} for the deploy`,
  secrets: [secret],
});
/** A token assigned to a key that names its provider (`ADAFRUIT_API_KEY=…`). */
export const keyed = (
  scanner: ScannerShape["scanner"],
  rule: string,
  key: string,
  secret: string,
): ScannerShape => ({
  scanner,
  rule,
  text: `${key}=${secret}`,
  secrets: [secret],
});
