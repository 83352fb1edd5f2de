// What an ASCII character is to a URL's userinfo, by code: most are part of it (IN_USERINFO).
export const IN_USERINFO = 0;
// Userinfo ends at the host; these never belong to it in a URL written into text (a `'` may: RFC
// 3986 sub-delims): whitespace, `/`, `?`, `#`, `"`, `<`, `>`, a backtick and a backslash.
export const ENDS_USERINFO = 1;
export const COLON = 2;
export const AT = 3;
// A table, not a test per character: the scan of a text dense with URLs (a password every few
// words) spent most of its time in a dozen comparisons per userinfo character.
export const USERINFO_CHARS = (() => {
  const table = new Uint8Array(128);
  for (const code of [9, 10, 11, 12, 13, 32, 47, 63, 35, 34, 60, 62, 96, 92]) table[code] = ENDS_USERINFO;
  table[58] = COLON;
  table[64] = AT;
  return table;
})();
/** The whitespace past ASCII that ends a userinfo (isWhitespace's). */
export const endsUserinfoPastAscii = (code: number): boolean =>
  code === 0xa0 || code === 0x2028 || code === 0x2029;
/** The longest userinfo read: the scan of one stops this many characters past its start. */
export const MAX_USERINFO = 1024;
