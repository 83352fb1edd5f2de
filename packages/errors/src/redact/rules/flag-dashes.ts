import type { WindowedSearch } from "../windowed-search.js";
import { keyPatterns, MAX_FLAG_WORD_START } from "./key-candidates.js";

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
