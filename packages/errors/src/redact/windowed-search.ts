import type { RedactionContext } from "./redaction-context.js";
import { MAX_PERIOD } from "./repeat-skipper.js";
import { repetitionEnd } from "./repetition-end.js";

// Searched a window at a time, so a stretch without a match can be judged before all of it is read.
const WINDOW = 4096;
// The characters that identify a repetition's unit when they occur again within a period.
const UNIT_PROBE = 16;

/** A match of a WindowedSearch: where it starts and ends. */
export interface Found {
  readonly index: number;
  readonly end: number;
}

/**
 * The matches of a global pattern whose decision at a position reads at most `before` characters
 * before it and `after` after it (no open-ended repetition, no look-around without a bound),
 * searched window by window. A window without a match in a text that repeats a short unit
 * (`-p ` a million times) settles every later position of the repetition: each reads the same
 * characters as one already searched. So a search costs a window and a few native comparisons
 * per repetition, not a scan of it; elsewhere it costs what one search does.
 */
export class WindowedSearch {
  // The window last searched, and the slice of the text that holds it and its reads.
  private slice = "";
  private sliceStart = 0;
  private windowEnd = -1;
  private askedFrom = 0;
  private answer: Found | null | undefined;

  constructor(
    private readonly text: string,
    private readonly pattern: RegExp,
    private readonly before: number,
    private readonly after: number,
    private readonly context: RedactionContext,
  ) {}

  /** The first match starting at or after `from`, or null. */
  next(from: number): Found | null {
    // The answer to an earlier search answers a later one that starts before what it found.
    if (
      this.answer !== undefined &&
      this.askedFrom <= from &&
      (this.answer?.index ?? Number.POSITIVE_INFINITY) >= from
    )
      return this.answer;
    this.askedFrom = from;
    this.answer = this.find(from);
    return this.answer;
  }

  private find(from: number): Found | null {
    const { text, pattern } = this;
    let position = from;
    // Matches close together are found in the window already sliced, one search each.
    if (position < this.windowEnd && position - this.before >= this.sliceStart) {
      const found = this.search(position);
      if (found !== null) return found;
      position = this.windowEnd;
    }
    while (position < text.length) {
      this.windowEnd = Math.min(text.length, position + WINDOW);
      this.sliceStart = Math.max(0, position - this.before);
      this.slice = text.slice(this.sliceStart, Math.min(text.length, this.windowEnd + this.after));
      const found = this.search(position);
      if (found !== null) return found;
      // Near the text's start a position reads the start, which no later one does.
      position =
        position < this.before
          ? this.windowEnd
          : Math.max(this.windowEnd, this.repeatedUpTo(this.sliceStart));
    }
    pattern.lastIndex = 0;
    return null;
  }

  /**
   * The first match in the current window at or after `position`. One starting in the window reads
   * only characters of the slice, so it is the same as in the text. Not counted, as no native
   * search is (RedactionContext): each window is searched once, or once per match in it.
   */
  private search(position: number): Found | null {
    const { pattern, sliceStart } = this;
    pattern.lastIndex = position - sliceStart;
    const found = pattern.exec(this.slice);
    if (found === null || found.index + sliceStart >= this.windowEnd) return null;
    return { index: found.index + sliceStart, end: pattern.lastIndex + sliceStart };
  }

  /**
   * When the text from `start` repeats a unit no longer than a window, where the positions whose
   * reads stay inside the repetition end; otherwise 0. Called after a window without a match.
   */
  private repeatedUpTo(start: number): number {
    const { text } = this;
    const probe = text.slice(start, start + UNIT_PROBE);
    if (probe.length < UNIT_PROBE) return 0;
    // A native search of a bounded stretch, once per window: not counted, as no native search is.
    const again = text.slice(start + 1, start + MAX_PERIOD + UNIT_PROBE).indexOf(probe);
    if (again === -1) return 0;
    const period = again + 1;
    // Characters of [start, end) repeat with the period; a position p in it reads [p - before,
    // p + after) and decides as p - period does, back to the window already searched.
    const end = repetitionEnd(text, start, period, this.context);
    return end - this.after;
  }
}
