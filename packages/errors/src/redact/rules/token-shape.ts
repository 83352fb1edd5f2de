import type { RedactionContext } from "../redaction-context.js";

/** A run of characters of one class, `min` to `max` long. */
export interface ShapeRun {
  readonly chars: (code: number) => boolean;
  readonly min: number;
  readonly max: number;
  /** The rest of a long run, read by the engine (sticky): `chars` over ASCII as a class. */
  readonly rest: RegExp;
}

// A run longer than this is read on by `rest`: the engine reads a long run several times faster.
const READ_BY_HAND = 64;

/** A token body: runs and the literal separators between them (`"."` in a JWT). */
export type Shape = readonly (ShapeRun | string)[];

/** How far a match read into the text (the position after the last character it looked at). */
export interface Reach {
  upTo: number;
}

/**
 * Matches `shape` at `start` and returns where it ends, or -1. Each run is read greedily
 * and never given back, so the cost is the length read: a format whose separator belongs
 * to the run before it must be written as one run. `reach` records how far it read.
 */
export function matchShape(
  text: string,
  start: number,
  shape: Shape,
  context: RedactionContext,
  reach: Reach,
): number {
  let position = start;
  for (const part of shape) {
    if (typeof part === "string") {
      reach.upTo = Math.max(reach.upTo, position + part.length);
      if (!text.startsWith(part, position)) return -1;
      position += part.length;
      continue;
    }
    const stop = Math.min(text.length, position + part.max);
    const runStart = position;
    const handStop = Math.min(stop, position + READ_BY_HAND);
    while (position < handStop && part.chars(text.charCodeAt(position))) position += 1;
    if (position === handStop && position < stop) {
      part.rest.lastIndex = position;
      part.rest.test(text);
      position = part.rest.lastIndex;
    }
    context.steps += position - runStart + 1;
    reach.upTo = Math.max(reach.upTo, position + 1);
    if (position - runStart < part.min) return -1;
  }
  return position;
}

/**
 * Matches `shape` backwards so that it ends at `end`, reading no further back than `floor`, and
 * returns where it starts, or -1. Every run of such a shape is bounded: it reads at most the sum
 * of their `max` characters.
 */
export function matchShapeBefore(
  text: string,
  end: number,
  shape: Shape,
  floor: number,
  context: RedactionContext,
): number {
  let position = end;
  for (let index = shape.length - 1; index >= 0; index -= 1) {
    const part = shape[index] as ShapeRun | string;
    if (typeof part === "string") {
      position -= part.length;
      if (position < floor || !text.startsWith(part, position)) return -1;
      continue;
    }
    const stop = Math.max(floor, position - part.max);
    const runEnd = position;
    while (position > stop && part.chars(text.charCodeAt(position - 1))) position -= 1;
    context.steps += runEnd - position + 1;
    if (runEnd - position < part.min) return -1;
  }
  return position;
}

/** `chars` as a character class; every class of a token body is ASCII. */
function classOf(chars: (code: number) => boolean): string {
  let members = "";
  for (let code = 0; code < 128; code += 1) {
    if (chars(code)) members += `\\x${code.toString(16).padStart(2, "0")}`;
  }
  return `[${members}]`;
}

/**
 * A run of `chars`. Its `rest` is built on first use: building every format's class at load
 * took several milliseconds of each process's start (a runner starts on a session's critical
 * path), and most runs never meet a run longer than `READ_BY_HAND`.
 */
export const run = (chars: (code: number) => boolean, min: number, max: number = min): ShapeRun => {
  let rest: RegExp | undefined;
  return {
    chars,
    min,
    max,
    get rest(): RegExp {
      rest ??= new RegExp(
        `${classOf(chars)}${max === Number.POSITIVE_INFINITY ? "*" : `{0,${Math.max(0, max - READ_BY_HAND)}}`}`,
        "y",
      );
      return rest;
    },
  };
};
