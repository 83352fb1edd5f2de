// Pieces joined into one string at a time: a chunk is flat, so the output of a text with many
// replacements is a few flat strings, not a rope of three young objects per replacement, which
// every scavenge copied while the rule ran and the next rule flattened again.
const CHUNK = 1024;

/** Collects replacements in order and applies them in one linear pass. */
export class Rewriter {
  private pieces: string[] = [];
  private chunks: string[] = [];
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
    this.pieces.push(this.text.slice(this.copiedUpTo, start), replacement);
    if (this.pieces.length >= CHUNK) this.joinPieces();
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
    this.pieces.push(unit.repeat(count));
    this.copiedUpTo += period * count;
    this.lastStart += period * count;
    this.replacements += count;
  }

  finish(): string {
    if (this.copiedUpTo === 0) return this.text;
    this.pieces.push(this.text.slice(this.copiedUpTo));
    this.joinPieces();
    return this.chunks.length === 1 ? (this.chunks[0] as string) : this.chunks.join("");
  }

  private joinPieces(): void {
    this.chunks.push(this.pieces.join(""));
    this.pieces = [];
  }
}
