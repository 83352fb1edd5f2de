// Helpers that build regular-expression source from word lists, for the rules' search patterns.

export const escapeForPattern = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * `word` matched in any letter case without the `i` flag (`tok` → `[Tt][Oo][Kk]`): a pattern
 * that also tests letter case elsewhere (a value's mixed case) cannot use the flag.
 */
export const caseless = (word: string): string =>
  escapeForPattern(word).replace(/[a-z]/gi, (letter) => `[${letter.toLowerCase()}${letter.toUpperCase()}]`);

/** Any of `words`, in any letter case. */
export const caselessAlternation = (words: readonly string[]): string => words.map(caseless).join("|");
