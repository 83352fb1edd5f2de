import { isAlnum } from "../char-classes.js";
import type { RedactionContext } from "../redaction-context.js";
import { Rewriter } from "../rewriter.js";

const MAX_USERINFO = 1024;

// What an ASCII character is to a userinfo, by code: most are part of it (0).
const IN_USERINFO = 0;
// Userinfo ends at the host; these never belong to it in a URL written into text (a `'` may: RFC
// 3986 sub-delims): whitespace, `/`, `?`, `#`, `"`, `<`, `>`, a backtick and a backslash.
const ENDS_USERINFO = 1;
const COLON = 2;
const AT = 3;
// A table, not a test per character: the scan of a text dense with URLs (a password every few
// words) spent most of its time in a dozen comparisons per userinfo character.
const USERINFO_CHARS = (() => {
  const table = new Uint8Array(128);
  for (const code of [9, 10, 11, 12, 13, 32, 47, 63, 35, 34, 60, 62, 96, 92]) table[code] = ENDS_USERINFO;
  table[58] = COLON;
  table[64] = AT;
  return table;
})();
// The whitespace past ASCII that ends a userinfo (isWhitespace's).
const endsUserinfoPastAscii = (code: number): boolean => code === 0xa0 || code === 0x2028 || code === 0x2029;

/** Twenty characters or more of letters, digits and `-_.~`, with both letters and digits. */
const isOpaqueToken = (userinfo: string): boolean =>
  /^[A-Za-z0-9._~-]{20,}$/.test(userinfo) && /[0-9]/.test(userinfo) && /[A-Za-z]/.test(userinfo);

/**
 * The password of a URL (`https://user:pass@host`, `redis://:pass@host`,
 * `mongodb+srv://user:pass@cluster`), or a token standing as its user (`https://<token>@github.com`):
 * scheme, user, host and path are kept.
 */
export function redactUrlCredentials(text: string, context: RedactionContext): string {
  // Userinfo ends at an `@`: a text without one (searched natively) has none.
  if (!text.includes("@")) return text;
  const rewriter = new Rewriter(text, context.replacement);
  // `scheme://` is `://` after a letter or digit: found natively by indexOf, without the engine's
  // call per URL (a match of `[A-Za-z0-9]:\/\/` is a `://` at 1 or more past where it resumes).
  let from = 1;
  for (let schemeEnd = text.indexOf("://", from); schemeEnd !== -1; schemeEnd = text.indexOf("://", from)) {
    from = schemeEnd + 3;
    if (!isAlnum(text.charCodeAt(schemeEnd - 1))) continue;
    context.steps += 1;
    const userStart = schemeEnd + 3;
    const stop = Math.min(text.length, userStart + MAX_USERINFO);
    let colon = -1;
    let at = -1;
    let index = userStart;
    // The last `@` before the host ends the userinfo: a password may hold an unencoded `@`.
    for (; index < stop; index += 1) {
      const code = text.charCodeAt(index);
      if (code >= 128) {
        if (endsUserinfoPastAscii(code)) break;
        continue;
      }
      const kind = USERINFO_CHARS[code];
      if (kind === IN_USERINFO) continue;
      if (kind === ENDS_USERINFO) break;
      if (kind === AT) at = index;
      else if (colon === -1 && at === -1) colon = index;
    }
    context.steps += index - userStart + 1;
    if (at === -1 || !isAlnum(text.charCodeAt(at + 1))) continue;
    // No `://` starts inside the userinfo, which holds no `/`: the search resumes after it.
    from = at + 1;
    if (colon === -1) {
      // `https://<token>@host`: a user name never looks like a token, a token does.
      if (isOpaqueToken(text.slice(userStart, at))) rewriter.replace(userStart, at);
      continue;
    }
    if (at <= colon + 1) continue;
    // Redacted already: compared in place, not through a slice per password.
    if (at - colon - 1 === context.replacement.length && text.startsWith(context.replacement, colon + 1))
      continue;
    rewriter.replace(colon + 1, at);
  }
  return rewriter.finish();
}
