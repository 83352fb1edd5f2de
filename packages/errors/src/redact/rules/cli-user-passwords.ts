import type { RedactionContext } from "../redaction-context.js";
import { Rewriter } from "../rewriter.js";

// `curl -u user:password`, `--user user:password`, `--proxy-user user:password`: the user is kept.
// Bounded lengths, and a candidate needs the flag before it, so the work stays linear. The dash
// comes first and the look-behind after it: the engine then tries the look-behind at dashes only.
const USER_FLAG =
  /-(?<![^\s"']-)(?:u|-user|-proxy-user)(?:[ \t]{1,8}|=)([^\s:"'`]{1,256}):([^\s"'`]{1,1024})/g;

/** The password of a `-u user:password` command-line credential. */
export function redactCliUserPasswords(text: string, context: RedactionContext): string {
  const rewriter = new Rewriter(text);
  USER_FLAG.lastIndex = 0;
  for (let found = USER_FLAG.exec(text); found !== null; found = USER_FLAG.exec(text)) {
    context.steps += found[0].length;
    const password = found[2] as string;
    if (password === context.replacement) continue;
    const end = found.index + found[0].length;
    rewriter.replace(end - password.length, end, context.replacement);
  }
  return rewriter.finish();
}
