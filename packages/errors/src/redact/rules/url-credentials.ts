import { isAlnum } from "../char-classes.js";
import type { RedactionContext } from "../redaction-context.js";
import { Rewriter } from "../rewriter.js";
import { redactRepeatedUrls } from "./repeated-url-passwords.js";
import {
  AT,
  ENDS_USERINFO,
  endsUserinfoPastAscii,
  IN_USERINFO,
  MAX_USERINFO,
  USERINFO_CHARS,
} from "./userinfo-chars.js";

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
  // The length of the text between the last two passwords redacted (see below).
  let previousGap = -1;
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
    const gapStart = rewriter.replacedUpTo;
    rewriter.replace(colon + 1, at);
    // The same length of text between passwords twice in a row: maybe a URL repeated with a new
    // password each time, whose next passwords are read without the rest of each URL.
    if (colon + 1 - gapStart === previousGap)
      from = redactRepeatedUrls(text, gapStart, colon + 1, at, rewriter, context) + 1;
    previousGap = colon + 1 - gapStart;
  }
  return rewriter.finish();
}
