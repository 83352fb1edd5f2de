/** What every redaction rule gets: the replacement text and a work counter. */
export interface RedactionContext {
  readonly replacement: string;
  /**
   * Characters examined by the rules' own scanners, plus one per candidate a rule's
   * search pattern yields. The search patterns are fixed-length or bounded, so this
   * count tracks the total work; tests assert it grows linearly with the input.
   */
  steps: number;
}

/** A rule rewrites the text, replacing each secret it finds with `context.replacement`. */
export type RedactionRule = (text: string, context: RedactionContext) => string;

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
