import { isToken68Char } from "../char-classes.js";
import type { RedactionContext } from "../redaction-context.js";
import { Rewriter } from "../rewriter.js";

// The path after these is the credential itself: whoever has the URL can post.
const WEBHOOK_PATHS =
  /hooks\.slack\.com\/(?:services|workflows|triggers)\/|discord(?:app)?\.com\/api\/webhooks\/|\.webhook\.office\.com\/webhookb2\/|hooks\.zapier\.com\/hooks\/catch\//g;
const MAX_PATH = 1024;
const isPathChar = (code: number): boolean => isToken68Char(code) || code === 64 || code === 37;

/** Slack, Discord, Microsoft Teams and Zapier webhook URLs: the host and the fixed path are kept. */
export function redactWebhookUrls(text: string, context: RedactionContext): string {
  // Every webhook host above ends in `.com/`: a cheaper search than `hook` in text full of `h`.
  if (!text.includes(".com/")) return text;
  const rewriter = new Rewriter(text, context.replacement);
  WEBHOOK_PATHS.lastIndex = 0;
  for (let found = WEBHOOK_PATHS.exec(text); found !== null; found = WEBHOOK_PATHS.exec(text)) {
    context.steps += 1;
    const start = found.index + found[0].length;
    const stop = Math.min(text.length, start + MAX_PATH);
    let end = start;
    while (end < stop && isPathChar(text.charCodeAt(end))) end += 1;
    context.steps += end - start + 1;
    // Trailing sentence punctuation is not part of the URL.
    while (end > start && text.charCodeAt(end - 1) === 46) end -= 1;
    if (end === start) continue;
    rewriter.replace(start, end);
    WEBHOOK_PATHS.lastIndex = end;
  }
  return rewriter.finish();
}
