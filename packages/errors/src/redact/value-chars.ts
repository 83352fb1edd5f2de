// The characters readValue decides an unquoted value's end and trailing characters on, listed
// once. Its per-character tests (endsUnquoted, isTrailingPunctuation in read-value.ts) stay written
// out as comparisons, which its loops need for speed, and a test over every code unit holds them
// to these lists (value-chars.test.ts); every pattern that reads or searches values as they do
// (the plain-assignment fast path, the search for a value's end, the overlong-run reader) is built
// from the lists, so a character added here reaches all of them.

/** Whitespace, `,` and `;` end an unquoted value. */
export const VALUE_END_CHARS: readonly string[] = [
  " ",
  "\t",
  "\n",
  "\v",
  "\f",
  "\r",
  "\u00a0",
  "\u2028",
  "\u2029",
  ",",
  ";",
];
/** In a query string `&` and `#` end one too. */
export const QUERY_VALUE_END_CHARS: readonly string[] = [...VALUE_END_CHARS, "&", "#"];
/** A value's last characters that belong to the text around it: quotes, a sentence's dot, a backslash. */
export const TRAILING_CHARS: readonly string[] = [".", '"', "'", "`", "\\"];
/** Closing brackets, each with its opener: a closer trails a value that did not open it. */
export const BRACKETS: readonly (readonly [closer: string, opener: string])[] = [
  [")", "("],
  ["]", "["],
  ["}", "{"],
  [">", "<"],
];

/** The members of a character class for `chars` (`\uXXXX` each), to put inside `[…]` or `[^…]`. */
export const classMembers = (chars: readonly string[]): string =>
  chars.map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
