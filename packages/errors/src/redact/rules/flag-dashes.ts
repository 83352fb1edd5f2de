import type { WindowedSearch } from "../windowed-search.js";
import { keyPatterns, MAX_FLAG_WORD_START } from "./key-candidates.js";

// How near a flag must follow where its search started for the next search to skip the word search.
const DENSE = 256;

/**
 * The matches of keyPatterns().flagCandidate (the dash of a `--flag` whose key holds a sensitive word). The
 * pattern is tried only from where a sensitive word is in reach of a dash, and the words are found
 * by a search that skips a repeated stretch without one (WindowedSearch): `-p ` or `--header ` a
 * million times costs a few windows, not a failed look-ahead at every dash.
 */
export class FlagDashes {
  // Whether the last flag was found near where its search started: then flags are dense, and the
  // next is searched for directly, as the word search first costs a second search (and a match
  // object) per flag, a fifth of `--token v1 --token v2 …`. Every flag's word follows its dash
  // within MAX_FLAG_WORD_START, so both searches find the same dash; searches resume after the
  // last, so the direct ones read disjoint stretches.
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
      // A dash further than that before the first word after it has no word in reach.
      flagCandidate.lastIndex = Math.max(from, word.index - MAX_FLAG_WORD_START);
    }
    if (!flagCandidate.test(this.text)) return -1;
    const dash = flagCandidate.lastIndex - 1;
    this.dense = dash - from <= DENSE;
    return dash;
  }
}
