// Character tests by code unit: the scanners call these once per character examined.
// Each is one flat test, never a call to another: until V8 optimises a scanner (the first
// megabyte a process redacts, every short text redacted early) each call is a real call, and a
// test built from three nested ones cost a key scan most of its time there. A code past the
// text's end (NaN) fails every comparison, so every test answers false for it.

export const isAsciiLetter = (code: number): boolean =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
export const isDigit = (code: number): boolean => code >= 48 && code <= 57;
export const isAlnum = (code: number): boolean =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
/** `[A-Za-z0-9_]`: a character that continues an identifier. */
export const isNameChar = (code: number): boolean =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95;
/** `[A-Za-z0-9_-]`: base64url, and most token bodies. */
export const isTokenChar = (code: number): boolean =>
  (code >= 97 && code <= 122) ||
  (code >= 65 && code <= 90) ||
  (code >= 48 && code <= 57) ||
  code === 95 ||
  code === 45;
/** RFC 7235 token68 without the trailing `=`: `[A-Za-z0-9._~+/-]`. */
export const isToken68Char = (code: number): boolean =>
  (code >= 97 && code <= 122) ||
  (code >= 65 && code <= 90) ||
  // `+`, `-`, `.`, `/` and the digits.
  (code >= 45 && code <= 57) ||
  code === 43 ||
  code === 95 ||
  code === 126;
/** `[A-Za-z0-9+/]`: base64 without padding. */
export const isBase64Char = (code: number): boolean =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 47 && code <= 57) || code === 43;
export const isHexChar = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 97 && code <= 102) || (code >= 65 && code <= 70);
export const isLowerHexChar = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 97 && code <= 102);
export const isUpperAlnum = (code: number): boolean =>
  (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
/** `[A-Za-z0-9_.-]`, a key's characters: `-`, `.` and the digits are 45 to 57 but `/`. */
export const isKeyChar = (code: number): boolean =>
  (code >= 97 && code <= 122) ||
  (code >= 65 && code <= 90) ||
  (code >= 45 && code <= 57 && code !== 47) ||
  code === 95;
/**
 * isKeyChar by table, for the loops that read a key's characters one by one (`KEY_CHARS[code] === 1`;
 * a code past ASCII reads undefined): a load where the test is a call, which it is until V8
 * optimises the loop, a process's first megabyte; the key scans' reads cost it a thirtieth less.
 */
export const KEY_CHARS = new Uint8Array(128);
for (let code = 0; code < 128; code += 1) KEY_CHARS[code] = isKeyChar(code) ? 1 : 0;
export const isBlank = (code: number): boolean => code === 32 || code === 9;
export const isWhitespace = (code: number): boolean =>
  code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x2028 || code === 0x2029;
/**
 * The code unit at `index`, or -1 outside the text, for a read that may pass either end: -1 fails
 * every test above as NaN would, but `charCodeAt` past the end leaves V8's optimised code (the
 * scanner is thrown away and compiled again, tens of milliseconds on a busy host).
 */
export const codeAt = (text: string, index: number): number =>
  index >= 0 && index < text.length ? text.charCodeAt(index) : -1;
export const BACKSLASH = 92;
export const DOUBLE_QUOTE = 34;
export const SINGLE_QUOTE = 39;

/** The end of the run of `test` characters starting at `start`, reading at most `limit` of them. */
export function runEnd(text: string, start: number, test: (code: number) => boolean, limit: number): number {
  const stop = Math.min(text.length, start + limit);
  let index = start;
  while (index < stop && test(text.charCodeAt(index))) index += 1;
  return index;
}
