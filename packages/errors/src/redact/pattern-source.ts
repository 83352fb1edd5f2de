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

/**
 * Any of `words` as a trie-shaped alternation (`s(?:k(?:-|_live_)|…)`), which the engine tries
 * far faster than a flat one. Where one word starts another only the longest is matched, even
 * when what follows the match fails: `pass` is never tried inside `password`.
 */
export function trieOf(words: readonly string[]): string {
  const byFirst = new Map<string, string[]>();
  let endsHere = false;
  for (const word of words) {
    if (word === "") endsHere = true;
    else byFirst.set(word.charAt(0), [...(byFirst.get(word.charAt(0)) ?? []), word.slice(1)]);
  }
  const branches = [...byFirst]
    .map(([first, rests]) => {
      const rest = rests.length === 1 ? escapeForPattern(rests[0] as string) : `(?:${trieOf(rests)})`;
      return escapeForPattern(first) + rest;
    })
    .join("|");
  if (!endsHere) return branches;
  return branches === "" ? "" : `(?:${branches}|(?!${branches}))`;
}
