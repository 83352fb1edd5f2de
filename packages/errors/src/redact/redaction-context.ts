/** What every redaction rule gets: the replacement text and a work counter. */
export interface RedactionContext {
  readonly replacement: string;
  /**
   * Characters examined by the rules' own scanners, plus one per candidate a rule's
   * search pattern yields. The search patterns are fixed-length or bounded, so this
   * count tracks the total work; tests assert it grows linearly with the input.
   */
  steps: number;
  /**
   * Set when a read stopped only because the text ended (an escaped quote left open): the text
   * that follows could have changed what was read. No other read crosses a line break.
   */
  readToEnd?: boolean;
}

/** A rule rewrites the text, replacing each secret it finds with `context.replacement`. */
export type RedactionRule = (text: string, context: RedactionContext) => string;
