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

/**
 * The password of a URL (`https://user:pass@host`, `redis://:pass@host`,
 * `mongodb+srv://user:pass@cluster`): scheme, user, host and path are kept.
 */
export function redactUrlCredentials(text: string, context: RedactionContext): string {
  const rewriter = new Rewriter(text);
  // `postgres://`, `mongodb+srv://`, `https://`: every `://` after a scheme character (indexOf is far
  // cheaper than a pattern tried at every word).
  for (let found = text.indexOf("://"); found !== -1; found = text.indexOf("://", found + 3)) {
    context.steps += 1;
    if (found === 0 || !isAlnum(text.charCodeAt(found - 1))) continue;
    const userStart = found + 3;
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
    if (colon === -1 || at <= colon + 1 || !isAlnum(text.charCodeAt(at + 1))) continue;
    if (text.slice(colon + 1, at) === context.replacement) continue;
    rewriter.replace(colon + 1, at, context.replacement);
    found = at - 3;
  }
  return rewriter.finish();
}
