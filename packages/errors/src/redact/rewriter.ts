/** Collects replacements in order and applies them in one linear pass. */
export class Rewriter {
  private output = "";
  private copiedUpTo = 0;

  constructor(private readonly text: string) {}

  /** Replaces `[start, end)` of the original text; calls must come in increasing, non-overlapping order. */
  replace(start: number, end: number, replacement: string): void {
    this.output += this.text.slice(this.copiedUpTo, start) + replacement;
    this.copiedUpTo = end;
  }

  finish(): string {
    return this.copiedUpTo === 0 ? this.text : this.output + this.text.slice(this.copiedUpTo);
  }
}
