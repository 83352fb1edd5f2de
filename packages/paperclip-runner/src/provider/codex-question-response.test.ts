import { describe, expect, it } from "vitest";
import { answers, COLOR, REFUSED_ANSWERS, WHY } from "../../test/helpers/question-response-refusals.js";
import { codexAnswers } from "./codex-question-response.js";
import { codexQuestionSet, type QuestionSet } from "./codex-question-set.js";

/** The fake app-server's two questions (an option question with a custom answer, a text one). */
function askSet(isOther = true): QuestionSet {
  const set = codexQuestionSet({
    questions: [
      { id: "color", question: "Which colour?", options: [{ label: "red" }, { label: "blue" }], isOther },
      { id: "why", question: "Why that one?" },
    ],
  });
  if (set === null || "refused" in set) throw new Error("the form is valid");
  return set;
}

const reason = (set: QuestionSet, response: unknown): string => {
  const outcome = codexAnswers(set, response);
  return outcome.ok ? "delivered" : outcome.reason;
};

describe("a question response as Codex's answers, checked as upstream's runner checks it", () => {
  it.each(REFUSED_ANSWERS)("refuses %s", (_name, response, expected) => {
    expect(reason(askSet(), response)).toBe(expected);
  });

  it("refuses a custom answer where the question allows none, before its value", () => {
    expect(reason(askSet(false), answers({ color: { customText: "" }, why: WHY }))).toBe(
      "color does not allow a custom answer",
    );
  });

  it("delivers an option's label, a custom answer and a text, white space and 4000 bytes taken", () => {
    expect(codexAnswers(askSet(), answers({ color: COLOR, why: { text: "é".repeat(2000) } }))).toEqual({
      ok: true,
      answers: { color: { answers: ["blue"] }, why: { answers: ["é".repeat(2000)] } },
    });
    expect(codexAnswers(askSet(), answers({ color: { customText: "   " }, why: { text: " " } }))).toEqual({
      ok: true,
      answers: { color: { answers: ["   "] }, why: { answers: [" "] } },
    });
  });

  it("takes one or more options for a multi-select question (ours only: upstream's reads no multiSelect)", () => {
    const set = codexQuestionSet({
      questions: [{ id: "m", question: "M?", options: ["a", "b"], multiSelect: true, required: false }],
    });
    if (set === null || "refused" in set) throw new Error("the form is valid");
    expect(codexAnswers(set, answers({ m: { selectedOptionIds: ["option-1", "option-2"] } }))).toEqual({
      ok: true,
      answers: { m: { answers: ["a", "b"] } },
    });
    expect(reason(set, answers({ m: { selectedOptionIds: [] } }))).toBe(
      "m requires at least one selected option",
    );
    // A question Codex marks optional may go unanswered.
    expect(codexAnswers(set, answers({}))).toEqual({ ok: true, answers: {} });
  });
});
