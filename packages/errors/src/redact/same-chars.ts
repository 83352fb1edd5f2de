// Stretches of one text compared in place, by hand: no slice made, and a stretch that differs is
// told at its first differing character.

/** Whether the `length` characters of `text` at `start` are those at `earlier`, compared by hand. */
export function sameCharsAt(text: string, earlier: number, start: number, length: number): boolean {
  for (let index = 0; index < length; index += 1) {
    if (text.charCodeAt(start + index) !== text.charCodeAt(earlier + index)) return false;
  }
  return true;
}

/**
 * Whether the `length` characters of `text` before `end` are those before `earlier`, compared from the
 * end: the characters between two flags differ mostly where a value was (`-H x1 ` and `-H x2 `).
 */
export function sameCharsBefore(text: string, earlier: number, end: number, length: number): boolean {
  for (let index = 1; index <= length; index += 1) {
    if (text.charCodeAt(end - index) !== text.charCodeAt(earlier - index)) return false;
  }
  return true;
}
