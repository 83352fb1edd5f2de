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
  constructor(
    private readonly text: string,
    private readonly pattern: RegExp,
    private readonly before: number,
    private readonly after: number,
    private readonly context: RedactionContext,
  ) {}

  /** The first match starting at or after `from`, or null. */
  next(from: number): Found | null {
    const { text, pattern } = this;
    let position = from;
    while (position < text.length) {
      const windowEnd = Math.min(text.length, position + WINDOW);
      const sliceStart = Math.max(0, position - this.before);
      const sliceEnd = Math.min(text.length, windowEnd + this.after);
      pattern.lastIndex = position - sliceStart;
      // A match starting in the window reads only characters of the slice: the same as in the text.
      // Not counted, as no native search is (RedactionContext): each window is searched once.
      const found = pattern.exec(text.slice(sliceStart, sliceEnd));
      if (found !== null && found.index + sliceStart < windowEnd) {
        return { index: found.index + sliceStart, end: pattern.lastIndex + sliceStart };
      }
      // Near the text's start a position reads the start, which no later one does.
      position = position < this.before ? windowEnd : Math.max(windowEnd, this.repeatedUpTo(sliceStart));
    }
    return null;
  }

  /**
   * When the text from `start` repeats a unit no longer than a window, where the positions whose
   * reads stay inside the repetition end; otherwise 0. Called after a window without a match.
   */
  private repeatedUpTo(start: number): number {
    const { text } = this;
    const probe = text.slice(start, start + UNIT_PROBE);
    if (probe.length < UNIT_PROBE) return 0;
    const again = text.slice(start + 1, start + MAX_PERIOD + UNIT_PROBE).indexOf(probe);
    this.context.steps += UNIT_PROBE;
    if (again === -1) return 0;
    const period = again + 1;
    // Characters of [start, end) repeat with the period; a position p in it reads [p - before,
    // p + after) and decides as p - period does, back to the window already searched.
    const end = repetitionEnd(text, start, period, this.context);
    return end - this.after;
  }
}
