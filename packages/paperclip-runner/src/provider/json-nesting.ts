/**
 * Upstream reads provider frames and the server's messages with serde_json, whose recursion
 * limit (128) refuses a value nested 128 levels deep: 127 levels is the most a frame may hold.
 */
export const MAX_JSON_NESTING = 127;

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Pure: whether JSON text nests arrays and objects deeper than `max` levels, found in one
 * pass before it is parsed (a deeper value would overflow the stack of every recursive
 * walk over it: JSON.stringify, redaction, digests). Brackets inside strings do not count.
 */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_NESTING): boolean {
  // Each level takes one character at least: a short text cannot nest too deep (deltas skip the scan).
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth -= 1;
    }
  }
  return false;
}
