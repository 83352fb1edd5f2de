import { BACKSLASH, isNameChar, isTokenChar } from "../char-classes.js";
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

// Where a prefix starts a token: a literal alternation behind a one-character look-behind, bounded
// work per position (measured faster than a hand-written loop over every character).
const TOKEN_START = new RegExp(
  `(?:(?<![A-Za-z0-9_])|(?<=\\\\[nrt]))(?:${[...new Set(TOKEN_FORMATS.flatMap((format) => format.prefixes))]
    .sort((a, b) => b.length - a.length)
    .map((prefix) => prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("|")})`,
  "g",
);

/** Known provider tokens by their published prefixes and shapes (`AKIA…`, `ghp_…`, `xoxb-…`, JWTs, …). */
export function redactTokenFormats(text: string, context: RedactionContext): string {
  const rewriter = new Rewriter(text);
  TOKEN_START.lastIndex = 0;
  for (let found = TOKEN_START.exec(text); found !== null; found = TOKEN_START.exec(text)) {
    context.steps += 1;
    const start = found.index;
    const end = matchAt(text, start, context);
    if (end === -1) {
      TOKEN_START.lastIndex = start + 1;
      continue;
    }
    rewriter.replace(start, end, context.replacement);
    TOKEN_START.lastIndex = end;
  }
  return rewriter.finish();
}

/** The end of the longest-prefixed token format that matches at `start`, or -1. */
function matchAt(text: string, start: number, context: RedactionContext): number {
  const bucket = prefixesByHead.get((text.charCodeAt(start) << 16) | text.charCodeAt(start + 1)) ?? [];
  for (const { prefix, format } of bucket) {
    if (!text.startsWith(prefix, start) || !startsToken(text, start, format.wholeRun === true)) continue;
    let end = matchShape(text, start + prefix.length, format.body, context);
    if (end !== -1 && format.tail) {
      const tailEnd = matchShape(text, end, format.tail, context);
      if (tailEnd !== -1) end = tailEnd;
    }
    if (end !== -1 && !isTokenChar(text.charCodeAt(end))) return end;
  }
  return -1;
}
