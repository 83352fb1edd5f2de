/** The package domain a code belongs to; each has one error class (`errors` uses `PaperclipError`). */
export type ErrorFamily = "errors" | "sandbox" | "createos" | "runner";

/**
 * One documented code. The shape follows the seed error pages: what the message
 * means, when it happens, how to fix it (ordered, most likely first) and how to
 * keep it from happening.
 */
export interface ErrorEntryDefinition {
  readonly family: ErrorFamily;
  /** A short human title. */
  readonly title: string;
  /** The message, verbatim, or a template with `${name}` placeholders. */
  readonly message: string;
  readonly meaning: string;
  /** Triggers and the common situations that produce them. */
  readonly when: string;
  /** Ordered, actionable fixes. */
  readonly solutions: readonly string[];
  readonly prevention: string;
  /** Optional code sample (TypeScript or shell) showing the failure or the fix. */
  readonly example?: string;
  /** `false` marks a legacy code: still documented, no longer emitted. Codes are never deleted or reused. */
  readonly emitted?: boolean;
  /** `true` marks a code its package raises and handles itself: it never reaches a caller (the page says so). */
  readonly internal?: boolean;
}

export type RegistryTable<Prefix extends string, Family extends ErrorFamily> = {
  readonly [code in `ERR_${Prefix}_${string}`]: ErrorEntryDefinition & { readonly family: Family };
};
