import type { ValueSpan } from "../read-value.js";

/**
 * The values a run of keys or flags judges, one after another, as the one span `isSecretValue`
 * reads (it keeps none: no object per value). A value equal to the one before repeats the key or
 * flag before it: a repetition, which the pass's repeat skipper skips whole where a run would
 * judge each, so the run stops there.
 */
export class RunValues {
  private readonly current: { start: number; end: number; text: string; quoted: boolean; readEnd: number };
  private previous: string;

  /** `first`: the value the run starts after, read by the pass itself. */
  constructor(first: string, quoted: boolean) {
    this.previous = first;
    this.current = { start: 0, end: 0, text: "", quoted, readEnd: 0 };
  }

  /** The value taken last. */
  get span(): ValueSpan {
    return this.current;
  }

  /** Takes the value at `[start, end)` of `text`; false, taking nothing, when it repeats the one before. */
  take(text: string, start: number, end: number): boolean {
    const value = text.slice(start, end);
    if (value === this.previous) return false;
    this.previous = value;
    this.current.start = start;
    this.current.end = end;
    this.current.text = value;
    this.current.readEnd = end + 1;
    return true;
  }
}
