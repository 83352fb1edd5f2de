import { redactSecrets, TRUNCATION_SUFFIX } from "@paperclipai/errors";

/** Upstream's bound on provider text carried in events, in characters (Unicode scalar values). */
export const MAX_EVENT_TEXT = 4000;

const KEPT_WHEN_CUT = MAX_EVENT_TEXT - Array.from(TRUNCATION_SUFFIX).length;

/**
 * Pure: provider text as events carry it, as upstream's runner bounds it: secrets redacted
 * first, then, when longer than 4000 characters, cut to 4000 characters with the cut marked
 * (`…[truncated]` inside the bound), so a reader knows the text goes on.
 */
export function boundedText(value: unknown): string {
  const text = redactSecrets(typeof value === "string" ? value : "");
  // A UTF-16 length within the bound means a character count within it too.
  if (text.length <= MAX_EVENT_TEXT) return text;
  let characters = 0;
  let index = 0;
  let cut = 0;
  for (const character of text) {
    characters += 1;
    if (characters > MAX_EVENT_TEXT) return `${text.slice(0, cut)}${TRUNCATION_SUFFIX}`;
    index += character.length;
    if (characters === KEPT_WHEN_CUT) cut = index;
  }
  return text;
}
