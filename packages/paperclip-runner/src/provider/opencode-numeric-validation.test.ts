import { describe, expect, it } from "vitest";
import {
  NUMERIC_CASES,
  NUMERIC_QUESTION,
  numericAnswer,
  TAKEN,
} from "../../test/helpers/opencode-numeric-validation-cases.js";
import type { QuestionSet } from "./codex-question-set.js";
import { opencodeResponseProblem } from "./opencode-question-response.js";
import { boundsInverted, textValidationProblem } from "./opencode-text-validation.js";

const set = NUMERIC_QUESTION as unknown as QuestionSet;

describe("a number-typed OpenCode answer", () => {
  it.each(NUMERIC_CASES)("%s %j: %s", (id, value, words) => {
    const outcome = opencodeResponseProblem(set, numericAnswer(id, value));
    expect(outcome).toEqual({ ok: false, reason: words });
  });

  it("takes the last question's answer: each case above is judged on its own question alone", () => {
    expect(opencodeResponseProblem(set, numericAnswer("last", "x"))).toEqual({ ok: true });
    expect(TAKEN).toContain("last");
  });

  it("judges the value only for inputType number or integer, after the length and the pattern", () => {
    const bounds = { minimum: 1, maximum: 2 };
    expect(textValidationProblem("q", { ...bounds, inputType: "text" }, "9")).toBeNull();
    expect(textValidationProblem("q", bounds, "abc")).toBeNull();
    expect(textValidationProblem("q", { ...bounds, inputType: "number", maxLength: 1 }, "99")).toBe(
      "answer q violates its text length constraint",
    );
    expect(textValidationProblem("q", { ...bounds, inputType: "number", pattern: "^x" }, "9")).toBe(
      "answer q does not match its required pattern",
    );
    expect(textValidationProblem("q", { ...bounds, inputType: "integer" }, "2.0")).toBeNull();
  });

  it("calls bounds inverted when a low one is past its high one, equal ones not", () => {
    expect(boundsInverted({ minLength: 2, maxLength: 1 })).toBe(true);
    expect(boundsInverted({ minimum: 0.5, maximum: 0.25 })).toBe(true);
    expect(boundsInverted({ minimum: 1, maximum: 1, minLength: 0, maxLength: 0 })).toBe(false);
    expect(boundsInverted({ minimum: 5 })).toBe(false);
  });
});
