/** Collects replacements in order and applies them in one linear pass. */
export class Rewriter {
  private output = "";
  private copiedUpTo = 0;
  private lastStart = 0;
  private lastReplacement = "";
  /** How many replacements were made so far. */
  replacements = 0;

  /** Where the last replacement ended: a later one starts here or after. */
  get replacedUpTo(): number {
    return this.copiedUpTo;
  }

  constructor(private readonly text: string) {}

  /** Replaces `[start, end)` of the original text; calls must come in increasing, non-overlapping order. */
  replace(start: number, end: number, replacement: string): void {
    this.output += this.text.slice(this.copiedUpTo, start) + replacement;
    this.copiedUpTo = end;
    this.lastStart = start;
    this.lastReplacement = replacement;
    this.replacements += 1;
  }

  /**
   * Repeats the last replacement `count` more times, each `period` characters after the one
   * before: for a text that repeats with that period, one native repeat instead of `count` calls.
   */
  repeatLast(period: number, count: number): void {
    const unit = this.text.slice(this.copiedUpTo, this.lastStart + period) + this.lastReplacement;
    this.output += unit.repeat(count);
    this.copiedUpTo += period * count;
    this.lastStart += period * count;
    this.replacements += count;
  }

  finish(): string {
    return this.copiedUpTo === 0 ? this.text : this.output + this.text.slice(this.copiedUpTo);
  }
}
