import type { RedactionContext } from "../redaction-context.js";

/** A run of characters of one class, `min` to `max` long. */
export interface ShapeRun {
  readonly chars: (code: number) => boolean;
  readonly min: number;
  readonly max: number;
}

/** A token body: runs and the literal separators between them (`"."` in a JWT). */
export type Shape = readonly (ShapeRun | string)[];

/**
 * Matches `shape` at `start` and returns where it ends, or -1. Each run is read greedily
 * and never given back, so the cost is the length read: a format whose separator belongs
 * to the run before it must be written as one run.
 */
export function matchShape(text: string, start: number, shape: Shape, context: RedactionContext): number {
  let position = start;
  for (const part of shape) {
    if (typeof part === "string") {
      if (!text.startsWith(part, position)) return -1;
      position += part.length;
      continue;
    }
    const stop = Math.min(text.length, position + part.max);
    const runStart = position;
    while (position < stop && part.chars(text.charCodeAt(position))) position += 1;
    context.steps += position - runStart + 1;
    if (position - runStart < part.min) return -1;
  }
  return position;
}

export const run = (chars: (code: number) => boolean, min: number, max: number = min): ShapeRun => ({
  chars,
  min,
  max,
});
