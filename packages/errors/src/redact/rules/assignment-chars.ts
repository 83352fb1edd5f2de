import { BACKSLASH } from "../char-classes.js";

// The characters readAssignment decides on around a key and at a value's start, shared with the
// plain-assignment fast path (plain-assignments.ts), which builds its pattern from them and must
// leave to readAssignment every shape they change.

/** The schemes that may open a value (`token: Bearer …`): what follows one is the credential. */
export const SCHEME_NAMES: readonly string[] = [
  "Bearer",
  "Basic",
  "Token",
  "Digest",
  "Negotiate",
  "Bot",
  "SSWS",
  "ApiKey",
];
// `b`, `t`, `d`, `n`, `s`, `a` in either case, SCHEME_NAMES' first letters (a test holds them to
// the list): most values (`v1234`) fail this comparison, where the pattern cost a dense keyed text
// a few milliseconds a megabyte.
export const mayStartScheme = (code: number): boolean => {
  const lower = code | 0x20;
  return lower === 98 || lower === 116 || lower === 100 || lower === 110 || lower === 115 || lower === 97;
};
/** A key after these is a variable reference (`$TOKEN`, `%TOKEN%`), not an assignment. */
export const isReferenceSigil = (code: number): boolean => code === 36 || code === 37;
/**
 * After a path separator only `=` makes an assignment: `/etc/password: No such file` is a path,
 * `/state/password=pw1/` a secret spelled into one.
 */
export const isPathSeparator = (code: number): boolean => code === 47 || code === BACKSLASH;
/** A value starting with these after `PWD` is the shell's directory, not an ODBC password. */
export const isPathStart = (code: number): boolean => code === 47 || code === 126;
/** `:` or `=` after a key (its closing quote, blanks): an explicit assignment. */
export const isSeparator = (code: number): boolean => code === 58 || code === 61;
/** `:` before a key whose `:` follows it: a field of a colon-separated id (`arn:aws:…:secret:x`). */
export const COLON = 58;
