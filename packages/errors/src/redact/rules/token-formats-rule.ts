import type { Triggers } from "../alphabet-gate.js";
import { builtOnFirstUse } from "../built-on-first-use.js";
import { BACKSLASH, isNameChar, isTokenChar } from "../char-classes.js";
import { FirstOfSearches } from "../first-of-searches.js";
import { trieOf } from "../pattern-source.js";
import type { RedactionContext } from "../redaction-context.js";
import { RepeatSkipper } from "../repeat-skipper.js";
import { Rewriter } from "../rewriter.js";
import { WindowedSearch } from "../windowed-search.js";
import { TOKEN_FORMATS, type TokenFormat } from "./token-formats.js";
import { matchShape, matchShapeBefore, type Reach } from "./token-shape.js";

interface TokenStarts {
  /** Prefixes by their first two characters: a token start costs one lookup, not one try per prefix. */
  readonly prefixesByHead: ReadonlyMap<
    number,
    readonly { readonly prefix: string; readonly format: TokenFormat }[]
  >;
  /**
   * Where a prefix starts a token: every prefix starts with a letter, so `\b` before it is the
   * same test as "no name character before"; unlike a look-behind it lets the engine skip ahead.
   */
  readonly startPattern: RegExp;
  /**
   * A prefix with a lead stands inside its token: found without `\b`, its lead checks the start.
   * Its own pattern, not a second alternative of startPattern: the engine then skips ahead to
   * these few prefixes' first characters, and tries startPattern alone at each word start, where
   * the two together cost every word start both (a dense keyed text a tenth of its time).
   */
  readonly innerPattern: RegExp;
  /** The longest prefix: what a token start reads after it (the trie looks no further). */
  readonly maxPrefix: number;
}

const tokenStarts = builtOnFirstUse((): TokenStarts => {
  const prefixesByHead = new Map<number, { readonly prefix: string; readonly format: TokenFormat }[]>();
  for (const format of TOKEN_FORMATS) {
    for (const prefix of format.prefixes) {
      const head = (prefix.charCodeAt(0) << 16) | prefix.charCodeAt(1);
      const bucket = prefixesByHead.get(head);
      if (bucket === undefined) prefixesByHead.set(head, [{ prefix, format }]);
      else bucket.push({ prefix, format });
    }
  }
  // Longest first, so `xoxe.xoxp-` wins over `xoxe-`; the sort is stable, so equal lengths keep
  // their order in TOKEN_FORMATS. Sorted once each, not per prefix added: the first redaction
  // of a process pays for this, unoptimised.
  for (const bucket of prefixesByHead.values()) {
    if (bucket.length > 1) bucket.sort((a, b) => b.prefix.length - a.prefix.length);
  }
  const prefixes = TOKEN_FORMATS.flatMap((format) => format.prefixes);
  const startPrefixes = TOKEN_FORMATS.filter((format) => !format.lead).flatMap((format) => format.prefixes);
  const innerPrefixes = TOKEN_FORMATS.filter((format) => format.lead).flatMap((format) => format.prefixes);
  return {
    prefixesByHead,
    startPattern: new RegExp(`\\b(?:${trieOf([...new Set(startPrefixes)])})`, "g"),
    innerPattern: new RegExp(trieOf(innerPrefixes), "g"),
    maxPrefix: Math.max(...prefixes.map((prefix) => prefix.length)),
  };
});

/** Every token this rule finds holds its format's prefix. */
export const TOKEN_PREFIX_TRIGGERS: Triggers = {
  words: TOKEN_FORMATS.flatMap((format) => format.prefixes),
  caseless: false,
};

// `\n`, `\r` and `\t` written out inside a JSON string end the word before them.
const isEscapeLetter = (code: number): boolean => code === 110 || code === 114 || code === 116;

/** Whether a token may start at `index`: the character before does not continue it. */
function startsToken(text: string, index: number, wholeRun: boolean): boolean {
  if (index === 0) return true;
  const before = text.charCodeAt(index - 1);
  if (isEscapeLetter(before) && text.charCodeAt(index - 2) === BACKSLASH) return true;
  return wholeRun ? !isTokenChar(before) && before !== 46 : !isNameChar(before);
}

// `\n`, `\r`, `\t` written out inside a JSON string: a token may start right after one.
const ESCAPED_BREAK = /\\[nrt]/g;

/** Known provider tokens by their published prefixes and shapes (`AKIA…`, `ghp_…`, `xoxb-…`, JWTs, …). */
export function redactTokenFormats(text: string, context: RedactionContext): string {
  const afterEscapes = text.includes("\\") ? redactAt(text, [ESCAPED_BREAK], 2, context) : text;
  const { startPattern, innerPattern } = tokenStarts();
  return redactAt(afterEscapes, [startPattern, innerPattern], 0, context);
}

/**
 * Tries every token format at each match of `starts` (offset by `skip`; a match reads one
 * character before it and at most the longest prefix after it) and redacts what matches. The
 * patterns are searched as alternatives of one: the first match wins, and at one position the
 * first pattern's.
 */
function redactAt(text: string, starts: readonly RegExp[], skip: number, context: RedactionContext): string {
  const rewriter = new Rewriter(text, context.replacement);
  const repeats = new RepeatSkipper(text, rewriter, context);
  const search = new FirstOfSearches(
    starts.map((pattern) => new WindowedSearch(text, pattern, 1, tokenStarts().maxPrefix + 1, context)),
  );
  // How far each step read: a format's run may read on without bound, and a step that read far
  // is never repeated by the skipper.
  const reach: Reach = { upTo: 0 };
  let position = 0;
  for (;;) {
    position = repeats.resume(position, position, reach.upTo);
    const found = search.next(position);
    if (found === null) break;
    context.steps += 1;
    // The search read its match and the characters a token start looks at before it.
    reach.upTo = found.end + 1;
    const token = matchAt(text, found.index + skip, rewriter.replacedUpTo, context, reach);
    if (token === null) {
      position = found.index + 1;
      continue;
    }
    rewriter.replace(token.start, token.end);
    position = token.end;
  }
  return rewriter.finish();
}

/**
 * The token of the longest-prefixed format whose prefix is at `at`, or null; a lead's token
 * starts before `at`, but not before `floor`.
 */
function matchAt(
  text: string,
  at: number,
  floor: number,
  context: RedactionContext,
  reach: Reach,
): { start: number; end: number } | null {
  const head = (text.charCodeAt(at) << 16) | text.charCodeAt(at + 1);
  const bucket = tokenStarts().prefixesByHead.get(head) ?? [];
  for (const { prefix, format } of bucket) {
    if (!text.startsWith(prefix, at)) continue;
    const start = format.lead ? matchShapeBefore(text, at, format.lead, floor, context) : at;
    if (start === -1 || !startsToken(text, start, format.wholeRun === true)) continue;
    let end = matchShape(text, at + prefix.length, format.body, context, reach);
    if (end !== -1 && format.tail) {
      const tailEnd = matchShape(text, end, format.tail, context, reach);
      // A tail that stops inside a word is not the token's: the token ends with its body.
      if (tailEnd !== -1 && !isTokenChar(text.charCodeAt(tailEnd))) end = tailEnd;
    }
    reach.upTo = Math.max(reach.upTo, end + 1);
    if (end !== -1 && !isTokenChar(text.charCodeAt(end))) return { start, end };
  }
  return null;
}
