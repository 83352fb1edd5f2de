// A piece this long is flattened by the engine in its young generation: a string of a megabyte
// goes to a fresh large-object page instead, and filling those pages costs more than every rule's
// own work on ordinary text (each rule that redacts flattens its whole input again).
export const PIECE_LENGTH = 32 * 1024;

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
