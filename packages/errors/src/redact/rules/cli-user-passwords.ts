import type { RedactionContext } from "../redaction-context.js";
import { Rewriter } from "../rewriter.js";
import { WindowedSearch } from "../windowed-search.js";

const MAX_BLANKS = 8;
const MAX_USER = 256;
const MAX_PASSWORD = 1024;
// `curl -u user:password`, `--user user:password`, `--proxy-user user:password`: the user is kept.
// Bounded lengths, and a candidate needs the flag before it, so the work stays linear. The dash
// comes first and the look-behind after it: the engine then tries the look-behind at dashes only.
const USER_FLAG_SOURCE = `-(?<![^\\s"']-)(?:u|-user|-proxy-user)(?:[ \\t]{1,${MAX_BLANKS}}|=)([^\\s:"'\`]{1,${MAX_USER}}):([^\\s"'\`]{1,${MAX_PASSWORD}})`;
const USER_FLAG = new RegExp(USER_FLAG_SOURCE, "g");
const USER_FLAG_AT = new RegExp(USER_FLAG_SOURCE, "y");
// What a match reads after its dash: the longest flag, blanks, user, colon, password and one more.
const READS_AFTER = "--proxy-user".length + MAX_BLANKS + MAX_USER + MAX_PASSWORD + 2;

/** The password of a `-u user:password` command-line credential. */
export function redactCliUserPasswords(text: string, context: RedactionContext): string {
  // Each flag holds a `u` (`-u`, `--user`, `--proxy-user`): a text without one has none. A
  // single character is searched natively at a fraction of the pattern's cost, which tries its
  // look-behind at every dash (`-H x`, `--token v` repeated: a millisecond a megabyte).
  if (!text.includes("u")) return text;
  const rewriter = new Rewriter(text, context.replacement);
  const search = new WindowedSearch(text, USER_FLAG, 1, READS_AFTER, context);
  for (let next = search.next(0); next !== null; next = search.next(next.end)) {
    // The search gives where the match is; the same match read again from the text gives its parts.
    USER_FLAG_AT.lastIndex = next.index;
    const found = USER_FLAG_AT.exec(text);
    if (found === null) break;
    context.steps += found[0].length;
    const password = found[2] as string;
    if (password === context.replacement) continue;
    const end = found.index + found[0].length;
    rewriter.replace(end - password.length, end);
  }
  return rewriter.finish();
}
