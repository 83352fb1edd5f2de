import { BACKSLASH, isAlnum, isNameChar, isTokenChar } from "../char-classes.js";
import { type RedactionContext, Rewriter } from "../redaction-context.js";
import { TOKEN_FORMATS, type TokenFormat } from "./token-formats.js";
import { matchShape } from "./token-shape.js";

const formatOfPrefix = new Map<string, TokenFormat>(
  TOKEN_FORMATS.flatMap((format) => format.prefixes.map((prefix) => [prefix, format] as const)),
);
// Longest first, so `xoxe.xoxp-` wins over `xoxe-`. A literal alternation: bounded work per position.
const PREFIXES = new RegExp(
  [...formatOfPrefix.keys()]
    .sort((a, b) => b.length - a.length)
    .map((prefix) => prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("|"),
  "g",
);

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
  PREFIXES.lastIndex = 0;
  for (let found = PREFIXES.exec(text); found !== null; found = PREFIXES.exec(text)) {
    context.steps += 1;
    const format = formatOfPrefix.get(found[0]) as TokenFormat;
    const start = found.index;
    if (!startsToken(text, start, format.wholeRun === true)) continue;
    let end = matchShape(text, start + found[0].length, format.body, context);
    if (end !== -1 && format.tail) {
      const tailEnd = matchShape(text, end, format.tail, context);
      if (tailEnd !== -1) end = tailEnd;
    }
    if (end === -1 || isTokenChar(text.charCodeAt(end)) || isAlnum(text.charCodeAt(end))) {
      PREFIXES.lastIndex = start + 1;
      continue;
    }
    rewriter.replace(start, end, context.replacement);
    PREFIXES.lastIndex = end;
  }
  return rewriter.finish();
}
