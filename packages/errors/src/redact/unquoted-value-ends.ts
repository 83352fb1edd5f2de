import type { RedactionContext } from "./redaction-context.js";
import { classMembers, QUERY_VALUE_END_CHARS, VALUE_END_CHARS } from "./value-chars.js";
import { WindowedSearch } from "./windowed-search.js";

// The characters that end an unquoted value (`endsUnquoted` in read-value.ts), and in a query string.
const VALUE_END = new RegExp(`[${classMembers(VALUE_END_CHARS)}]`, "g");
const QUERY_VALUE_END = new RegExp(`[${classMembers(QUERY_VALUE_END_CHARS)}]`, "g");

/**
 * Where the unquoted values of one text end, found by the engine: a search for the first end is
 * several times faster than reading a long value by hand or with a bounded repetition. The end
 * found is remembered and answers every later position before it: values are read left to right,
 * so a long run without an end (`password=` repeated) is searched once, not once per value, and
 * the searches cover disjoint stretches of the text.
 */
export class UnquotedValueEnds {
  private readonly searchedFrom = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  private readonly found = [0, 0];
  // Window by window, so a long repeated stretch without an end (`?token=` a million times) is
  // compared natively, not scanned.
  private readonly searches: (WindowedSearch | undefined)[] = [undefined, undefined];

  constructor(private readonly text: string) {}

  /** The first end at or after `position`, or the text's length when none. */
  endFrom(position: number, inQuery: boolean, context: RedactionContext): number {
    const slot = inQuery ? 1 : 0;
    const found = this.found[slot] as number;
    if ((this.searchedFrom[slot] as number) <= position && position <= found) return found;
    const search =
      this.searches[slot] ??
      new WindowedSearch(this.text, inQuery ? QUERY_VALUE_END : VALUE_END, 0, 1, context);
    this.searches[slot] = search;
    const end = search.next(position)?.index ?? this.text.length;
    this.searchedFrom[slot] = position;
    this.found[slot] = end;
    context.steps += end - position + 1;
    return end;
  }
}
