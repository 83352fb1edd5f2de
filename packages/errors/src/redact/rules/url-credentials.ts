import { isAlnum, isWhitespace } from "../char-classes.js";
import type { RedactionContext } from "../redaction-context.js";
import { Rewriter } from "../rewriter.js";

const MAX_USERINFO = 1024;

// Userinfo ends at the host; these never belong to it in a URL written into text (a `'` may: RFC 3986 sub-delims).
const endsUserinfo = (code: number): boolean =>
  isWhitespace(code) ||
  code === 47 ||
  code === 63 ||
  code === 35 ||
  code === 34 ||
  code === 60 ||
  code === 62 ||
  code === 96 ||
  code === 92;

// `scheme://`. No look-ahead for the `@`: the scan after a match reads the same characters (it
// stops where endsUserinfo does, and a `://` has a `/` that stops the scan of the one before), so
// a text dense with URLs paid for reading each userinfo twice.
const SCHEME_END = /[A-Za-z0-9]:\/\//g;

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
  SCHEME_END.lastIndex = 0;
  // test, not exec: the match is `x://`, so where it ends is all a
  // step needs, and a match array per URL cost a dense text of URLs a tenth of its time.
  while (SCHEME_END.test(text)) {
    context.steps += 1;
    const userStart = SCHEME_END.lastIndex;
    const stop = Math.min(text.length, userStart + MAX_USERINFO);
    let colon = -1;
    let at = -1;
    let index = userStart;
    // The last `@` before the host ends the userinfo: a password may hold an unencoded `@`.
    for (; index < stop; index += 1) {
      const code = text.charCodeAt(index);
      if (endsUserinfo(code)) break;
      if (code === 58 && colon === -1 && at === -1) colon = index;
      else if (code === 64) at = index;
    }
    context.steps += index - userStart + 1;
    if (at === -1 || !isAlnum(text.charCodeAt(at + 1))) continue;
    if (colon === -1) {
      // `https://<token>@host`: a user name never looks like a token, a token does.
      if (isOpaqueToken(text.slice(userStart, at))) rewriter.replace(userStart, at);
      SCHEME_END.lastIndex = at;
      continue;
    }
    if (at <= colon + 1) continue;
    // Redacted already: compared in place, not through a slice per password.
    if (at - colon - 1 === context.replacement.length && text.startsWith(context.replacement, colon + 1))
      continue;
    rewriter.replace(colon + 1, at);
    SCHEME_END.lastIndex = at;
  }
  return rewriter.finish();
}
