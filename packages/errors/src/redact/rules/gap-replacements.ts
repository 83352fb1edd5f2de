import type { Rewriter } from "../rewriter.js";

/**
 * The replacements of a run of keys or flags: each value redacted right after the same gap as the
 * one before (the text since the previous redacted value) waits, and a stretch of them is written
 * as one native repeat (`Rewriter.replaceAfterEach`); any other redacted value is replaced alone.
 */
export class GapReplacements {
  private pending = 0;
  private pendingGap = "";
  private pendingStart = 0;
  private pendingEnd = 0;

  /** `lastRedacted`: whether the value before the run's first judged one was redacted. */
  constructor(
    private readonly rewriter: Rewriter,
    private lastRedacted: boolean,
  ) {}

  /**
   * The value at `[start, end)` was judged (`secret`: to be redacted). `gap`: the text between the
   * value before and this one, or null where the run did not compare it.
   */
  judged(secret: boolean, gap: string | null, start: number, end: number): void {
    if (secret && this.lastRedacted && gap !== null) {
      if (this.pending > 0 && gap !== this.pendingGap) this.flush();
      this.pendingGap = gap;
      this.pending += 1;
      this.pendingStart = start;
      this.pendingEnd = end;
    } else if (secret) {
      this.flush();
      this.rewriter.replace(start, end);
    }
    this.lastRedacted = secret;
  }

  /** Writes the waiting replacements: at the run's end, before anything else is written. */
  flush(): void {
    if (this.pending > 0)
      this.rewriter.replaceAfterEach(this.pendingGap, this.pending, this.pendingStart, this.pendingEnd);
    this.pending = 0;
  }
}
