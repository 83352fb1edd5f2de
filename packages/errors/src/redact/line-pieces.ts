// A piece this long is flattened by the engine among its young objects (up to 128 KiB: 96 Ki
// characters and a line of one-byte text, as logs mostly are): a string of a megabyte gets fresh
// large-object pages instead, and filling those cost more than the rules' own work on ordinary
// text, as each rule that redacts something leaves a rope that the next flattens whole. Shorter
// pieces cost more calls, each on a slice of the text, whose characters are slower to read.
export const PIECE_LENGTH = 96 * 1024;

/**
 * Where the piece of `text` that starts at `start` ends: just after the first line break at or
 * past `start + PIECE_LENGTH`, or at the text's end. A piece ends with its line break, so every
 * read that stops at a line end stops inside it.
 */
export function pieceEnd(text: string, start: number): number {
  if (text.length - start <= PIECE_LENGTH) return text.length;
  const lineBreak = text.indexOf("\n", start + PIECE_LENGTH);
  return lineBreak === -1 ? text.length : lineBreak + 1;
}
