// Helpers that build regular-expression source from word lists, for the rules' search patterns.

// The characters that mean something in a pattern, and a table of them by code: most words hold
// none and are returned as they are, without a call into the engine's replace per word (a trie
// of two hundred prefixes made four hundred on a process's first redaction).
const SPECIAL = /[.*+?^${}()|[\]\\/]/g;
const SPECIAL_CODES = new Uint8Array(128);
for (const char of ".*+?^$(){}|[]\\/") SPECIAL_CODES[char.charCodeAt(0)] = 1;

/** `text` with every character that means something in a pattern escaped, to match itself. */
export function escapeForPattern(text: string): string {
  for (let index = 0; index < text.length; index += 1) {
    if (SPECIAL_CODES[text.charCodeAt(index)] === 1) return text.replace(SPECIAL, "\\$&");
  }
  return text;
}

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
  // Built once per process, on the first redaction: a copy of each group per word added to it,
  // or a closure per branch, cost that call milliseconds before V8 optimises anything.
  const byFirst = new Map<string, string[]>();
  let endsHere = false;
  for (const word of words) {
    if (word === "") {
      endsHere = true;
      continue;
    }
    const rests = byFirst.get(word.charAt(0));
    if (rests === undefined) byFirst.set(word.charAt(0), [word.slice(1)]);
    else rests.push(word.slice(1));
  }
  const branches: string[] = [];
  for (const [first, rests] of byFirst) {
    const rest = rests.length === 1 ? escapeForPattern(rests[0] as string) : `(?:${trieOf(rests)})`;
    branches.push(escapeForPattern(first) + rest);
  }
  const alternation = branches.join("|");
  if (!endsHere) return alternation;
  return alternation === "" ? "" : `(?:${alternation}|(?!${alternation}))`;
}
