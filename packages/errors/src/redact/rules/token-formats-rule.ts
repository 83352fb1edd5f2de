import { BACKSLASH, isAlnum, isNameChar, isTokenChar } from "../char-classes.js";
import type { RedactionContext } from "../redaction-context.js";
import { Rewriter } from "../rewriter.js";
import { TOKEN_FORMATS, type TokenFormat } from "./token-formats.js";
import { matchShape } from "./token-shape.js";

// Prefixes by their first two characters: a token start costs one lookup, not one try per prefix.
const prefixesByHead = new Map<number, { readonly prefix: string; readonly format: TokenFormat }[]>();
for (const format of TOKEN_FORMATS) {
  for (const prefix of format.prefixes) {
    const head = (prefix.charCodeAt(0) << 16) | prefix.charCodeAt(1);
    const bucket = prefixesByHead.get(head) ?? [];
    bucket.push({ prefix, format });
    // Longest first, so `xoxe.xoxp-` wins over `xoxe-`.
    bucket.sort((a, b) => b.prefix.length - a.prefix.length);
    prefixesByHead.set(head, bucket);
  }
}

// `\n`, `\r` and `\t` written out inside a JSON string end the word before them.
const isEscapeLetter = (code: number): boolean => code === 110 || code === 114 || code === 116;

/** Whether a token may start at `index`: the character before does not continue it. */
function startsToken(text: string, index: number, wholeRun: boolean): boolean {
  if (index === 0) return true;
  const before = text.charCodeAt(index - 1);
  if (isEscapeLetter(before) && text.charCodeAt(index - 2) === BACKSLASH) return true;
  return wholeRun ? !isTokenChar(before) && before !== 46 : !isNameChar(before);
}

/** Known provider tokens by their published prefixes and shapes (`AKIA…`, `ghp_…`, `xoxb-…`, JWTs, …). */
export function redactTokenFormats(text: string, context: RedactionContext): string {
  const rewriter = new Rewriter(text);
  const length = text.length;
  // Every prefix starts with a letter or a digit; a token starts where a name does not continue.
  for (let start = 0; start < length - 1; start += 1) {
    if (!isAlnum(text.charCodeAt(start)) || !startsToken(text, start, false)) continue;
    const bucket = prefixesByHead.get((text.charCodeAt(start) << 16) | text.charCodeAt(start + 1));
    if (bucket === undefined) continue;
    context.steps += 1;
    for (const { prefix, format } of bucket) {
      if (!text.startsWith(prefix, start) || !startsToken(text, start, format.wholeRun === true)) continue;
      let end = matchShape(text, start + prefix.length, format.body, context);
      if (end !== -1 && format.tail) {
        const tailEnd = matchShape(text, end, format.tail, context);
        if (tailEnd !== -1) end = tailEnd;
      }
      if (end === -1 || isTokenChar(text.charCodeAt(end))) continue;
      rewriter.replace(start, end, context.replacement);
      start = end - 1;
      break;
    }
  }
  return rewriter.finish();
}
