import { redactSecrets, TRUNCATION_SUFFIX } from "@paperclipai/errors";

/** Upstream's bound on provider text carried in events, in characters (Unicode scalar values). */
export const MAX_EVENT_TEXT = 4000;

/**
 * Upstream's bound on the same text in UTF-8 bytes, as measured against its shipped binary (the
 * `further` oracle scenario: `x`, then 2-byte characters to byte 4097, is cut before the one
 * ending on byte 4097): multi-byte text is cut where the kept part would pass 4096 bytes,
 * however few characters that is.
 */
export const MAX_EVENT_TEXT_BYTES = 4096;

const KEPT_WHEN_CUT = MAX_EVENT_TEXT - Array.from(TRUNCATION_SUFFIX).length;

/** Pure: the UTF-8 length of one character (a Unicode scalar value). */
function utf8Bytes(character: string): number {
  const code = character.codePointAt(0) ?? 0;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
}

/**
 * Pure: provider text as events carry it, as upstream's runner bounds it: secrets redacted
 * first, then, when longer than 4000 characters or 4096 UTF-8 bytes, cut to at most 3988
 * characters within 4096 bytes with `…[truncated]` after them, so a reader knows the text
 * goes on. A cut never splits a character.
 */
export function boundedText(value: unknown): string {
  const text = redactSecrets(typeof value === "string" ? value : "");
  // A UTF-16 length within a third of the byte bound keeps both bounds (3 bytes at most per unit).
  if (text.length * 3 <= MAX_EVENT_TEXT_BYTES) return text;
  let characters = 0;
  let bytes = 0;
  let index = 0;
  let cut = -1;
  for (const character of text) {
    characters += 1;
    bytes += utf8Bytes(character);
    if (characters > MAX_EVENT_TEXT || bytes > MAX_EVENT_TEXT_BYTES) {
      return `${text.slice(0, cut < 0 ? index : cut)}${TRUNCATION_SUFFIX}`;
    }
    if (characters === KEPT_WHEN_CUT) cut = index + character.length;
    index += character.length;
  }
  return text;
}
