import { codeAt, KEY_CHARS } from "../char-classes.js";
import type { WindowedSearch } from "../windowed-search.js";
import { keyPatterns, MAX_FLAG_KEY, MAX_FLAG_WORD_START, mayStartSecondWord } from "./key-candidates.js";

// How near a dash must follow where its search started for the next search to skip the words.
const DENSE = 256;

/**
 * The matches of keyPatterns().flagCandidate (the dash of a `--flag` whose key holds a sensitive word). The
 * pattern is tried only from where a sensitive word is in reach of a dash, and the words are found
 * by a search that skips a repeated stretch without one (WindowedSearch): `-p ` or `--header ` a
 * million times costs a few windows, not a failed look-ahead at every dash. Where flags follow
 * each other closely (`--token v1 --token v2 …`), the pattern is searched for directly: the word
 * search first would cost a second search per flag.
 */
export class FlagDashes {
  private dense = false;

  /** `words`: the sensitive words of `text` (sensitiveWords). */
  constructor(
    private readonly text: string,
    private readonly words: WindowedSearch,
  ) {}

  /** The first flagCandidate match at or after `from`, or -1. Calls come with `from` not decreasing. */
  next(from: number): number {
    const { flagCandidate } = keyPatterns();
    if (this.dense) {
      flagCandidate.lastIndex = from;
    } else {
      const word = this.words.next(from + 1);
      if (word === null) return -1;
      // A dash further than that before the first word after it has no word in reach: the first
      // match from here is the first from `from`.
      flagCandidate.lastIndex = Math.max(from, word.index - MAX_FLAG_WORD_START);
    }
    const dash = flagCandidate.test(this.text) ? flagCandidate.lastIndex - 1 : -1;
    this.dense = dash !== -1 && dash - from <= DENSE;
    return dash;
  }
}

/**
 * For readAssignment, where the sensitive word of the key after a flag's dash at `afterDash - 1`
 * ends: with the key's last key character, unless the word is two (`--secret key value`).
 */
export function flagWordEnd(text: string, afterDash: number): number {
  let runEnd = afterDash;
  const limit = Math.min(text.length, afterDash + MAX_FLAG_KEY);
  while (runEnd < limit && KEY_CHARS[text.charCodeAt(runEnd)] === 1) runEnd += 1;
  if (codeAt(text, runEnd) !== 32) return runEnd;
  if (!mayStartSecondWord(text.charCodeAt(runEnd + 1))) return runEnd;
  const { secondWord, flagKeyWord } = keyPatterns();
  secondWord.lastIndex = runEnd;
  if (!secondWord.test(text)) return runEnd;
  flagKeyWord.lastIndex = afterDash;
  return flagKeyWord.test(text) ? flagKeyWord.lastIndex : runEnd;
}
