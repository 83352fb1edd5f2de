import { describe, expect, it } from "vitest";
import { redactSecrets } from "./redact-secrets.js";
import { RepeatSkipper } from "./repeat-skipper.js";
import { Rewriter } from "./rewriter.js";

// A rule in miniature: the scan stops at every `=`, and a `v` after it becomes `[R]`.
function redactEachV(text: string, skipRepeats: boolean): { text: string; steps: number } {
  const context = { replacement: "[R]", steps: 0 };
  const rewriter = new Rewriter(text, context.replacement);
  const repeats = new RepeatSkipper(text, rewriter, context);
  let from = 0;
  for (;;) {
    if (skipRepeats) from = repeats.resume(from, from);
    const at = text.indexOf("=", from);
    if (at === -1) break;
    // Only `v` values are replaced: a step may replace nothing.
    if (text.charCodeAt(at + 1) === 118) rewriter.replace(at + 1, at + 2);
    from = at + 1;
  }
  return { text: rewriter.finish(), steps: context.steps };
}

// A rule whose steps read far ahead: a `v` is replaced only when the character 10,000 on is not `z`.
function redactLookingFar(text: string, skipRepeats: boolean): string {
  const context = { replacement: "[R]", steps: 0 };
  const rewriter = new Rewriter(text, context.replacement);
  const repeats = new RepeatSkipper(text, rewriter, context);
  let from = 0;
  let reach = 0;
  for (;;) {
    if (skipRepeats) from = repeats.resume(from, from, reach);
    const at = text.indexOf("=v", from);
    if (at === -1) break;
    reach = at + 10_001;
    if (text.charCodeAt(at + 10_000) !== 122) rewriter.replace(at + 1, at + 2);
    from = at + 2;
  }
  return rewriter.finish();
}

// A rule that reads a run to its end past the reach it reports: a `v` is replaced only when the
// blanks after it end in something other than `z`.
function redactBeforeBlanks(text: string, runsPastReach: number | null): string {
  const context = { replacement: "[R]", steps: 0 };
  const rewriter = new Rewriter(text, context.replacement);
  const repeats = new RepeatSkipper(text, rewriter, context, runsPastReach ?? 0);
  let from = 0;
  let reach = 0;
  for (;;) {
    if (runsPastReach !== null) from = repeats.resume(from, from, reach);
    const at = text.indexOf("=v", from);
    if (at === -1) break;
    reach = at + 3;
    let runEnd = at + 2;
    while (text.charCodeAt(runEnd) === 32) runEnd += 1;
    if (text.charCodeAt(runEnd) !== 122) rewriter.replace(at + 1, at + 2);
    from = at + 2;
  }
  return rewriter.finish();
}

describe("RepeatSkipper", () => {
  it("repeats no step past what the step read, however far that is", () => {
    const text = `${"key=v; ".repeat(20_000)}${"z".repeat(20_000)}`;
    const plain = redactLookingFar(text, false);
    expect(plain).toContain("key=v; z");
    expect(redactLookingFar(text, true)).toBe(plain);
  });

  it("repeats no step whose run of blanks could leave the repetition", () => {
    // Blanks longer than the skipper's margin of error at a repetition's end, in every unit.
    const text = `${`key=v${" ".repeat(300)}`.repeat(2_000)}${" ".repeat(5_000)}z`;
    const plain = redactBeforeBlanks(text, null);
    expect(plain).toMatch(/key=v {5300}z$/);
    expect(redactBeforeBlanks(text, 1)).toBe(plain);
    // Counted as no run, the last unit is repeated too: its blanks run on to the `z`.
    expect(redactBeforeBlanks(text, 0)).not.toBe(plain);
  });

  it.each([
    ["a text that repeats throughout", "key=v; ".repeat(20_000)],
    [
      "a repetition broken in the middle",
      `${"key=v; ".repeat(9_000)}key=w; ${"key=v; ".repeat(9_000)}tail=v`,
    ],
    ["repetitions of two periods", `${"a=v ".repeat(9_000)}${"bb=v, ".repeat(9_000)}`],
    ["steps without a replacement", `${"a=w b=v ".repeat(9_000)}${"c=x ".repeat(9_000)}`],
    ["a text too short to skip", "key=v; ".repeat(20)],
  ])("gives the output of a redaction at every period (%s)", (_label, text) => {
    expect(redactEachV(text, true).text).toBe(redactEachV(text, false).text);
  });

  it("skips a long repetition with a bounded number of comparisons", () => {
    const { steps } = redactEachV("key=v; ".repeat(100_000), true);
    expect(steps).toBeGreaterThan(0);
    expect(steps).toBeLessThan(2 * 700_000);
  });
});

describe("redactSecrets on repeated assignments", () => {
  it("redacts every repetition and what follows them as a rule reading each would", () => {
    const text = `${"--password ".repeat(20_000)}--password hunter2 --token abc123def`;
    expect(redactSecrets(text)).toBe(
      `${"--password [REDACTED] ".repeat(10_000)}--password [REDACTED] --token [REDACTED]`,
    );
    const headers = `${"Authorization: Bearer ".repeat(5_000)}Authorization: Bearer abc123def456`;
    expect(redactSecrets(headers)).toBe(
      `${"Authorization: Bearer [REDACTED] Bearer ".repeat(2_500)}Authorization: Bearer [REDACTED]`,
    );
  });

  it("judges the last flags and schemes of a repetition by what follows it", () => {
    // The last flag's value comes after a run of blanks that leaves the repetition.
    const flags = `${"--pwd ".repeat(20_001)}${" ".repeat(3_000)}x1`;
    expect(redactSecrets(flags)).toBe(
      `${"--pwd [REDACTED] ".repeat(10_000)}--pwd ${" ".repeat(3_000)}[REDACTED]`,
    );
    // The word after the last scheme, read past the value's start, ends after the repetition.
    const schemes = "Authorization: Splunk abcdefgh ".repeat(5_000);
    expect(redactSecrets(`${schemes}Authorization: Splunk abcdefgh1`)).toBe(
      `${schemes}Authorization: Splunk [REDACTED]`,
    );
  });
});
