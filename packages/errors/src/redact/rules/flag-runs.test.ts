import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readValue } from "../read-value.js";
import { redactSecrets } from "../redact-secrets.js";
import type { RedactionContext } from "../redaction-context.js";
import { Rewriter } from "../rewriter.js";
import { isSecretValue, namesASecret } from "../secret-values.js";
import { UnquotedValueEnds } from "../unquoted-value-ends.js";
import { flagWordEnd } from "./flag-dashes.js";
import { judgeFlagsInRun, MAX_FLAG_GAP, sameCharsAt, sameCharsBefore, sameFlagAfter } from "./flag-runs.js";
import { keyPatterns, MAX_FLAG_KEY } from "./key-candidates.js";
import { readPlain } from "./plain-assignments.js";
import { isCommandLike, readAssignment } from "./read-assignment.js";

const contextOf = (replacement = "[R]"): RedactionContext => ({ replacement, steps: 0 });

describe("sameCharsAt and sameCharsBefore", () => {
  it("compare two stretches of the text, from their starts or before their ends", () => {
    expect(sameCharsAt("ab-ab-ac", 0, 3, 2)).toBe(true);
    expect(sameCharsAt("ab-ab-ac", 0, 6, 2)).toBe(false);
    expect(sameCharsAt("ab", 0, 1, 2)).toBe(false);
    expect(sameCharsBefore("x1 -x1 -x2 -", 3, 7, 3)).toBe(true);
    expect(sameCharsBefore("x1 -x1 -x2 -", 7, 11, 3)).toBe(false);
  });
});

describe("sameFlagAfter", () => {
  // The flag `--token ` at 1, its value `v1` at 9 to 11.
  const after = (rest: string) => sameFlagAfter(` --token v1${rest}`, 1, 9, 11);

  it("finds the same flag after a blank, or past other flags without a sensitive word", () => {
    expect(after(" --token v2")).toBe(12);
    expect(after(" -H x2 --token v3")).toBe(18);
    expect(after(" -H x2 -p 1 -o ./a --token v3")).toBe(30);
  });

  it("finds none past three letters in a row, another flag, another character before it or too far", () => {
    expect(after(" -H abc --token v3")).toBe(-1);
    expect(after(" --tokens v2")).toBe(-1);
    expect(after(",--token v2")).toBe(-1);
    expect(after(` ${"-1".repeat(MAX_FLAG_GAP / 2)} --token v2`)).toBe(-1);
    expect(after("")).toBe(-1);
  });
});

/**
 * The flag pass as it reads without runs, from where it resumes after the flag at `dash`
 * (`resumeAt`): each dash flagCandidate finds, its key read by readAssignment and its value by
 * readValue, judged as the pass judges it. The replacements, and where the pass resumes after each
 * flag judged.
 */
function flagsOneByOne(text: string, resumeAt: number, replacement: string) {
  const { flagCandidate } = keyPatterns();
  const context = contextOf(replacement);
  const replaced: [number, number][] = [];
  const resumes: number[] = [];
  let position = resumeAt;
  for (;;) {
    flagCandidate.lastIndex = position;
    if (!flagCandidate.test(text)) break;
    const dash = flagCandidate.lastIndex - 1;
    const assignment = readAssignment(text, dash, flagWordEnd(text, dash + 1), MAX_FLAG_KEY, context);
    if ("skipTo" in assignment) {
      position = Math.max(assignment.skipTo, dash + 1);
      continue;
    }
    const value = readValue(
      text,
      assignment.valueStart,
      assignment.inQuery,
      context,
      new UnquotedValueEnds(text),
    );
    const secret =
      isSecretValue(assignment.kind, assignment.form, value, replacement) &&
      !(!value.quoted && namesASecret(value.text) && isCommandLike(assignment));
    if (secret) replaced.push([value.start, value.end]);
    position = secret ? value.end : assignment.keyEnd;
    resumes.push(position);
  }
  return { replaced, resumes };
}

const rewritten = (text: string, spans: readonly [number, number][], replacement: string): string => {
  let result = "";
  let copied = 0;
  for (const [start, end] of spans) {
    result += text.slice(copied, start) + replacement;
    copied = end;
  }
  return result + text.slice(copied);
};

describe("judgeFlagsInRun", () => {
  const pieces = (values: readonly string[]) => fc.constantFrom(...values);
  // Values that change a flag's reading or judgement: prose and listed words, a name of a secret, a
  // scheme, a first letter that may make the key two words, a trailing dot, a label, a reference.
  const value = fc.oneof(
    { weight: 6, arbitrary: fc.nat(99_999).map((index) => `v${index}`) },
    { weight: 2, arbitrary: fc.nat(999_999).map(String) },
    {
      weight: 3,
      arbitrary: pieces(["pending", "is", "app-token", "key1", "Key9", "string", "s3cr3t", "Bearer", "xxxx"]),
    },
    {
      weight: 2,
      arbitrary: pieces(["v1.", "v1:", "$X", "-x", "'v'", "v;", "a/-token", "a+-jwt", "[R]", "R1"]),
    },
  );
  // What follows a value up to the next flag: a blank, other flags and their values, what ends a
  // value, prose, another flag of the same name.
  const between = fc.oneof(
    { weight: 2, arbitrary: pieces([" ", " -H x1 "]) },
    // Another flag with a value of its own each time: each next flag is found past it.
    { weight: 3, arbitrary: fc.nat(999).map((index) => ` -H x${index} `) },
    {
      weight: 1,
      arbitrary: pieces(["  ", "\t", "\n", ",", " ; ", " -o ./a ", " -H abc ", " -x -- ", " --password p1 "]),
    },
  );
  // Rarely the value before again.
  const again = fc.nat(9).map((draw) => draw === 0);
  const runs = fc
    .record({
      // Mostly the blank most of `between` ends with: a run needs the same character before each flag.
      lead: fc.oneof({ weight: 6, arbitrary: fc.constant(" ") }, pieces(["\n", "(", "?", "&", "$"])),
      flag: pieces(["--token", "-pwd", "--api-key", "--secret key", "--secret", "--password", "--tokens"]),
      blanks: pieces([" ", "  ", "\t"]),
      units: fc.array(fc.tuple(value, between, again), { minLength: 1, maxLength: 40 }),
    })
    .map(({ lead, flag, blanks, units }) => {
      // A unit may repeat the value before, which a run leaves to the repeat skipper.
      let text = `${lead}${flag}${blanks}`;
      let last = "";
      for (const [unitValue, after, again] of units) {
        const judged = again && last !== "" ? last : unitValue;
        text += `${judged}${after}${flag}${blanks}`;
        last = judged;
      }
      return { text: `${text}v0 end`, dash: lead.length };
    });

  it("decides on each flag as the pass reading one at a time, and resumes where it would", () => {
    let judged = 0;
    fc.assert(
      fc.property(runs, pieces(["[R]", "[REDACTED]", "xx"]), ({ text, dash }, replacement) => {
        const context = contextOf(replacement);
        const first = readPlain(text, dash, flagWordEnd(text, dash + 1), MAX_FLAG_KEY, context, true);
        if (first === null || !("value" in first)) return;
        const { value } = first;
        const secret = isSecretValue(first.kind, first.form, value, replacement) && !namesASecret(value.text);
        const rewriter = new Rewriter(text, replacement);
        if (secret) rewriter.replace(value.start, value.end);
        const run = judgeFlagsInRun(text, first, dash, secret, rewriter, context);
        const oneByOne = flagsOneByOne(text, secret ? value.end : first.keyEnd, replacement);
        if (run === null) {
          expect(rewriter.replacements).toBe(secret ? 1 : 0);
          return;
        }
        judged += run.keys;
        // The run's flags are the first the pass judges after this one, and it resumes after them.
        expect(oneByOne.resumes[run.keys - 1]).toBe(run.resumeAt);
        const spans = oneByOne.replaced.filter(([start]) => start < run.resumeAt);
        const expected = rewritten(text, secret ? [[value.start, value.end], ...spans] : spans, replacement);
        expect(rewriter.finish()).toBe(expected);
      }),
      { numRuns: 2000 },
    );
    expect(judged).toBeGreaterThan(1000);
  });
});

describe("runs of a flag", () => {
  it("redacts each value of a long run, and of a run alternating with another flag", () => {
    const same = Array.from({ length: 40 }, (_, index) => `--token v${index}`).join(" ");
    expect(redactSecrets(`run ${same}`)).toBe(`run ${"--token [REDACTED] ".repeat(40).trimEnd()}`);
    const alternating = Array.from({ length: 40 }, (_, index) => `-H x${index} --token v${index}`).join(" ");
    expect(redactSecrets(`run ${alternating}`)).toBe(
      `run ${Array.from({ length: 40 }, (_, index) => `-H x${index} --token [REDACTED]`).join(" ")}`,
    );
  });

  it("keeps what the flag pass keeps inside a run, and redacts the flags after it", () => {
    const flags = Array.from({ length: 30 }, (_, index) => `--token v${index}`);
    flags.splice(
      12,
      0,
      "--token pending",
      "--token app-token",
      "--token v1.",
      "--token ./a -H --password p1",
    );
    const expected = flags.map((flag) =>
      flag.startsWith("--token v1.")
        ? "--token [REDACTED]."
        : flag === "--token ./a -H --password p1"
          ? "--token [REDACTED] -H --password [REDACTED]"
          : /^--token v\d+$/.test(flag)
            ? "--token [REDACTED]"
            : flag,
    );
    expect(redactSecrets(`run ${flags.join(" ")}`)).toBe(`run ${expected.join(" ")}`);
  });
});
