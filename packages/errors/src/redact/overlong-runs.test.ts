import { describe, expect, it } from "vitest";
import { findOverlongRuns } from "./overlong-runs.js";

const find = (text: string, minLength: number) =>
  findOverlongRuns(text, minLength, { replacement: "", steps: 0 });

describe("findOverlongRuns", () => {
  it("finds each run longer than the bound, wherever it starts against the probed blocks", () => {
    for (const before of ["", "a b ", "x".repeat(7), `${"x".repeat(30)} `]) {
      const text = `${before}${"y".repeat(40)},short;${"z".repeat(33)}\n${"w".repeat(32)}`;
      const first = before.lastIndexOf(" ") + 1;
      const second = text.indexOf("z");
      expect(find(text, 32)).toEqual([
        { start: first, end: before.length + 40 },
        { start: second, end: second + 33 },
      ]);
    }
  });

  it("ends a run at any whitespace, a comma or a semicolon, and finds none in ordinary text", () => {
    for (const end of [" ", "\t", "\r", "\u00a0", "\u2028", ",", ";"]) {
      expect(find(`${"a".repeat(20)}${end}${"b".repeat(20)}`, 32)).toEqual([]);
    }
    expect(find("the quick brown fox jumps over the lazy dog ".repeat(100), 32)).toEqual([]);
    expect(find("x".repeat(32), 32)).toEqual([]);
  });

  it("counts a bounded amount of work per character", () => {
    const context = { replacement: "", steps: 0 };
    findOverlongRuns("a=".repeat(512 * 1024), 4096, context);
    expect(context.steps).toBeLessThan(2 * 1024);
  });
});
