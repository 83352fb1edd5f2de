import type { RedactionContext } from "./redaction-context.js";
import type { Rewriter } from "./rewriter.js";
import { MAX_CREDENTIAL_LENGTH } from "./values.js";

// The longest period taken as a repetition: a hostile text repeats a short unit.
const MAX_PERIOD = 1024;
// How far before and after the stretch between two redactions a rule's decisions may read: a key
// side and the character before a key, and a value's bound, a key's reach and a blank run
// (shorter than the period in a text that repeats) after it.
const READS_BEFORE = 80;
const READS_AFTER = MAX_CREDENTIAL_LENGTH + 2 * MAX_PERIOD + 256;
// Compared a chunk at a time, doubling: a long repetition costs a few native comparisons.
const FIRST_CHUNK = 256;
const LAST_CHUNK = 64 * 1024;

/**
 * A rule's scan that redacts the same thing again and again (`--password ` repeated a million
 * times) skips ahead: after two redactions, when the text around the stretch between them
 * repeats with its length as the period, every decision the rule would take in the next stretch
 * reads the same characters, so it takes the same decisions and leaves its scan one period on.
 * The rule calls `skip` after each redaction with the position its scan resumes from.
 */
export class RepeatedRedactions {
  private previous = -1;
  private checkedUpTo = 0;

  constructor(
    private readonly text: string,
    private readonly rewriter: Rewriter,
    private readonly context: RedactionContext,
  ) {}

  /** Where the scan resumes once the repetitions after a redaction (resuming at `resume`) are applied. */
  skip(resume: number): number {
    const previous = this.previous;
    this.previous = resume;
    const period = resume - previous;
    if (previous < READS_BEFORE || period > MAX_PERIOD || resume < this.checkedUpTo) return resume;
    const repeatsUpTo = this.repetitionEnd(previous - READS_BEFORE, period);
    this.checkedUpTo = repeatsUpTo;
    const count = Math.floor((repeatsUpTo - READS_AFTER - resume) / period);
    if (count <= 0) return resume;
    this.rewriter.repeatLast(period, count);
    this.previous = resume + period * count;
    return this.previous;
  }

  /** The end of the stretch from `start` in which every character equals the one `period` after it, plus the period. */
  private repetitionEnd(start: number, period: number): number {
    const text = this.text;
    let verified = start;
    let chunk = Math.max(FIRST_CHUNK, period);
    while (verified + period < text.length) {
      const length = Math.min(chunk, text.length - period - verified);
      this.context.steps += length;
      if (text.startsWith(text.slice(verified, verified + length), verified + period)) {
        verified += length;
        chunk = Math.min(chunk * 2, LAST_CHUNK);
      } else if (chunk > FIRST_CHUNK) {
        chunk = Math.floor(chunk / 2);
      } else {
        break;
      }
    }
    return verified + period;
  }
}
