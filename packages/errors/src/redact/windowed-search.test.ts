import { describe, expect, it } from "vitest";
import { WindowedSearch } from "./windowed-search.js";

const allStarts = (text: string, pattern: RegExp): number[] =>
  [...text.matchAll(pattern)].map((match) => match.index as number);

const windowedStarts = (text: string, pattern: RegExp, before: number, after: number): number[] => {
  const search = new WindowedSearch(text, pattern, before, after, { replacement: "", steps: 0 });
  const starts: number[] = [];
  for (let found = search.next(0); found !== null; found = search.next(found.end)) starts.push(found.index);
  return starts;
};

// A word-boundary prefix reads one character before a match and its own length after it.
const PREFIX = /\b(?:ghp_|sk-)/g;

describe("WindowedSearch", () => {
  it.each([
    ["a repetition without a match", "-p ".repeat(20_000)],
    ["a repetition with one match after it", `${"-p ".repeat(20_000)} ghp_x`],
    ["a match inside a repetition", `${"-p ".repeat(9_000)}sk-${"-p ".repeat(9_000)}`],
    ["matches that repeat", "x sk-".repeat(9_000)],
    ["a prefix glued to the repetition (no word boundary)", `${"aghp_".repeat(9_000)} ghp_`],
    ["matches across window ends", Array.from({ length: 3_000 }, (_, index) => `w${index} ghp_`).join("")],
  ])("finds the same matches as a search of the whole text: %s", (_name, text) => {
    expect(windowedStarts(text, PREFIX, 1, 8)).toEqual(allStarts(text, PREFIX));
  });

  it("settles a long repetition after a window or two, not one search per window", () => {
    class CountedSearches extends RegExp {
      searches = 0;
      override exec(text: string): RegExpExecArray | null {
        this.searches += 1;
        return super.exec(text);
      }
    }
    const pattern = new CountedSearches(PREFIX.source, "g");
    const text = "-H ".repeat(400_000);
    const search = new WindowedSearch(text, pattern, 1, 8, { replacement: "", steps: 0 });
    expect(search.next(0)).toBeNull();
    // 1.2 million characters are about 300 windows.
    expect(pattern.searches).toBeLessThanOrEqual(4);
  });
});
