import { MAX_CREDENTIAL_LENGTH } from "./read-value.js";
import type { RedactionContext } from "./redaction-context.js";
import { repetitionEnd } from "./repetition-end.js";
import type { Rewriter } from "./rewriter.js";

// The longest period taken as a repetition: a hostile text repeats a short unit.
export const MAX_PERIOD = 1024;
// How far before and after the stretch between two steps a rule's decisions may read: a key side
// and the characters before a key; a value's bound, a key's reach and a blank run (shorter than
// the period in a text that repeats) after it.
const READS_BEFORE = 80;
const READS_AFTER = MAX_CREDENTIAL_LENGTH + 2 * MAX_PERIOD + 256;
// The steps remembered: a period may span a few candidates (`--auth-token` holds two words).
const HISTORY = 4;
// Steps between two looks for a repetition, at first and after a look that skipped one; each look
// that skips none doubles the wait, up to MAX_LOOK_EVERY. Powers of two: every look falls on a
// multiple of four steps, so a period of two or four steps is met in the same phase as ever.
const LOOK_EVERY = 4;
const MAX_LOOK_EVERY = 64;
// Characters compared one by one before a native comparison: ordinary text differs at once.
const PROBE = 16;

/**
 * Lets a rule's scan skip what it would do again and again (`--password ` repeated a million
 * times): when the scan's state (where it resumes, how far past that it has judged) has moved by
 * a period since an earlier step, with at most one replacement in between, and the text around
 * that stretch repeats with the period, every decision of the next stretch reads the same
 * characters, so it repeats: the replacement is repeated natively for every period that stays
 * inside the repetition, with a margin for the rule's reads, and the scan resumes after them.
 */
export class RepeatSkipper {
  // The last HISTORY steps in a ring (slot `(next - 1) % HISTORY` is the newest): a step costs a
  // few stores, not the shifts of four arrays.
  private readonly positions = new Float64Array(HISTORY);
  private readonly offsets = new Float64Array(HISTORY);
  private readonly replaced = new Float64Array(HISTORY);
  private readonly reaches = new Float64Array(HISTORY);
  private next = 0;
  private checkedUpTo = 0;
  private lookEvery = LOOK_EVERY;

  /**
   * `runsPastReach`: how many runs of one class of characters (blanks, backslashes, name
   * characters) a step may read past the reach it reports, one after another, each read to its
   * end by a pattern. In a repetition whose unit holds a character outside the class (the rule's
   * trigger), such a run ends within a period, so each adds a period to the reads after a step.
   */
  constructor(
    private readonly text: string,
    private readonly rewriter: Rewriter,
    private readonly context: RedactionContext,
    private readonly runsPastReach = 0,
  ) {}

  /**
   * Called before each step of a scan that resumes at `position` and has judged the text up to
   * `examinedUpTo`; returns where to resume instead (both move by the same distance). A rule
   * that knows how far its last step read (`reach`) passes it; otherwise its reads are taken to
   * stay within a value's bound and a key's reach.
   */
  resume(position: number, examinedUpTo: number, reach = position + READS_AFTER): number {
    const offset = Math.max(0, examinedUpTo - position);
    const replaced = this.rewriter.replacements;
    let result = position;
    // The furthest any step since the earlier state read: what those steps read must repeat too.
    let furthest = reach;
    // Looked for every few steps only, and ever fewer while none is found: a repetition goes on for
    // many periods, so finding it a few dozen steps late costs nothing, while looking at every step
    // of ordinary text cost a key pass a sixth of its time, and every fourth step a dense run of
    // distinct keys (`token: v<i>`, each look probing a few earlier steps) a fourteenth. Every step
    // is still remembered, as a later look needs its reach.
    if (this.next % this.lookEvery === 0 && position >= this.checkedUpTo) {
      let skipped = false;
      const { text } = this;
      const stored = Math.min(this.next, HISTORY);
      for (let back = 1; back <= stored; back += 1) {
        const slot = (this.next - back) % HISTORY;
        const earlier = this.positions[slot] as number;
        const period = position - earlier;
        if (period > MAX_PERIOD || earlier < READS_BEFORE) break;
        if (back > 1) furthest = Math.max(furthest, this.reaches[(slot + 1) % HISTORY] as number);
        if (period <= 0 || this.offsets[slot] !== offset || replaced - (this.replaced[slot] as number) > 1)
          continue;
        // Ordinary text differs at the probe's first character: checked here, before a call.
        if (text.charCodeAt(earlier - READS_BEFORE) !== text.charCodeAt(position - READS_BEFORE)) continue;
        if (!this.probe(earlier - READS_BEFORE, period)) continue;
        const repeatsUpTo = repetitionEnd(text, earlier - READS_BEFORE, period, this.context);
        this.checkedUpTo = repeatsUpTo;
        const readsAfter = Math.max(0, furthest - position) + this.runsPastReach * period;
        const count = Math.floor((repeatsUpTo - readsAfter - position) / period);
        if (count > 0) {
          if (replaced > (this.replaced[slot] as number)) this.rewriter.repeatLast(period, count);
          result = position + period * count;
          skipped = true;
        }
        break;
      }
      this.lookEvery = skipped ? LOOK_EVERY : Math.min(MAX_LOOK_EVERY, 2 * this.lookEvery);
    }
    const slot = this.next % HISTORY;
    this.positions[slot] = result;
    this.offsets[slot] = offset;
    this.replaced[slot] = this.rewriter.replacements;
    this.reaches[slot] = reach + result - position;
    this.next += 1;
    return result;
  }

  private probe(start: number, period: number): boolean {
    const text = this.text;
    const stop = Math.min(start + PROBE, text.length - period);
    this.context.steps += stop - start;
    for (let index = start; index < stop; index += 1) {
      if (text.charCodeAt(index) !== text.charCodeAt(index + period)) return false;
    }
    return true;
  }
}
