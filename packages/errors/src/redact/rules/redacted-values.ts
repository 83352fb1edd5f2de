import { isBlank } from "../char-classes.js";
import { sameCharsBefore } from "../same-chars.js";

// The key pass rejects a sensitive word before a value redacted already (`--token [REDACTED]`, as
// the flag pass leaves each flag) without a call into the engine, but finds the next word with a
// search of its own: a text dense with them (`--token v1 -H x2 --token v3 …`) is cheaper searched
// natively for the next candidate, past every such word, unless the text repeats a unit, which
// the pass's repeat skipper skips and a native search would read whole.

/** Whether blanks and then `replacement` follow `position` (`token [REDACTED]`). */
export function followsRedacted(text: string, position: number, replacement: string): boolean {
  let start = position;
  while (isBlank(text.charCodeAt(start))) start += 1;
  return start > position && text.startsWith(replacement, start);
}

/**
 * Whether the stretch from `earlier` to `start` differs from the stretch of the same length
 * before `earlier`; false when `earlier` is -1 or the text holds no such stretch before it.
 */
export function startsNewUnit(text: string, earlier: number, start: number): boolean {
  const period = start - earlier;
  if (earlier === -1 || period <= 0 || period > earlier) return false;
  return !sameCharsBefore(text, earlier, start, period);
}
