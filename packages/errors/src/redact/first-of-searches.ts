import type { Found, WindowedSearch } from "./windowed-search.js";

/**
 * Several WindowedSearches as the alternatives of one pattern (`a|b`): the first match at or
 * after a position, and at one position the earlier search's. Two patterns each simple enough for
 * the engine to skip ahead cost less than one that alternates them, tried at every position.
 */
export class FirstOfSearches {
  constructor(private readonly searches: readonly WindowedSearch[]) {}

  /** The first match starting at or after `from`, or null. */
  next(from: number): Found | null {
    let first: Found | null = null;
    for (const search of this.searches) {
      const found = search.next(from);
      if (found !== null && (first === null || found.index < first.index)) first = found;
    }
    return first;
  }
}
