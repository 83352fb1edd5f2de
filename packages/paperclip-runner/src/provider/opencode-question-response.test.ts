import { describe, expect, it } from "vitest";
import {
  OPENCODE_BOUND_ANSWERS,
  OPENCODE_BOUND_REFUSALS,
} from "../../test/helpers/opencode-answer-bounds.js";
import {
  OPENCODE_QUESTION,
  OPENCODE_REFUSED_ANSWERS,
} from "../../test/helpers/opencode-question-refusals.js";
import {
  VALIDATED_QUESTION,
  VALIDATION_ANSWERS,
  VALIDATION_REFUSALS,
} from "../../test/helpers/opencode-text-validation-cases.js";
import { answers, COLOR, WHY } from "../../test/helpers/question-response-refusals.js";
import type { QuestionSet } from "./codex-question-set.js";
import { opencodeResponseProblem } from "./opencode-question-response.js";

const set = OPENCODE_QUESTION as unknown as QuestionSet;

describe("opencodeResponseProblem", () => {
  it.each([...OPENCODE_REFUSED_ANSWERS, ...OPENCODE_BOUND_REFUSALS])(
    "refuses %s in upstream's words",
    (_name, response, reason) => {
      expect(opencodeResponseProblem(set, response)).toEqual({ ok: false, reason });
    },
  );

  it.each([
    ["an option and a text", answers({ color: COLOR, why: WHY })],
    ["a custom answer", answers({ color: { customText: "green" }, why: WHY })],
    ["a text with an empty selection", answers({ color: COLOR, why: { text: "x", selectedOptionIds: [] } })],
    ...OPENCODE_BOUND_ANSWERS,
  ])("takes %s, as upstream's runner delivers it", (_name, response) => {
    expect(opencodeResponseProblem(set, response)).toEqual({ ok: true });
  });

  it("takes no answer for a question that is not required, and refuses custom text where none is allowed", () => {
    const [color, why] = OPENCODE_QUESTION.questions;
    const optional = {
      ...OPENCODE_QUESTION,
      questions: [{ ...color, required: false, customAnswer: undefined }, why],
    } as unknown as QuestionSet;
    expect(opencodeResponseProblem(optional, answers({ why: WHY }))).toEqual({ ok: true });
    expect(opencodeResponseProblem(optional, answers({ color: { customText: "x" }, why: WHY }))).toEqual({
      ok: false,
      reason: "select answer color does not allow custom text",
    });
    expect(
      opencodeResponseProblem(optional, answers({ color: COLOR, why: { text: "x", customText: "y" } })),
    ).toEqual({ ok: false, reason: "text answer why cannot contain selection fields" });
  });

  const validated = VALIDATED_QUESTION as unknown as QuestionSet;
  it.each(VALIDATION_REFUSALS)(
    "refuses %s against textValidation in upstream's words",
    (_name, response, reason) => {
      expect(opencodeResponseProblem(validated, response)).toEqual({ ok: false, reason });
    },
  );

  it.each(VALIDATION_ANSWERS)("takes %s against textValidation, as upstream's", (_name, response) => {
    expect(opencodeResponseProblem(validated, response)).toEqual({ ok: true });
  });
});
