import { describe, expect, it } from "vitest";
import { MAX_JSON_NESTING, nestsDeeperThan } from "./json-nesting.js";

const nested = (levels: number): string => `${"[".repeat(levels)}${"]".repeat(levels)}`;

describe("nestsDeeperThan", () => {
  it("accepts upstream's deepest frame (127 levels) and refuses one level more", () => {
    expect(nestsDeeperThan(nested(MAX_JSON_NESTING))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_NESTING + 1))).toBe(true);
    expect(nestsDeeperThan(`{"a":${nested(MAX_JSON_NESTING)}}`)).toBe(true);
  });

  it("counts arrays and objects alike, in sequence rather than summed", () => {
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(nestsDeeperThan(`[${Array(1000).fill(nested(3)).join(",")}]`, 4)).toBe(false);
  });

  it("ignores brackets inside strings, escaped quotes included", () => {
    expect(nestsDeeperThan(JSON.stringify({ text: "[".repeat(500) }), 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ text: `\\"${"{".repeat(500)}` }), 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify([`"`, ["x"]]), 1)).toBe(true);
  });
});
