import { describe, expect, it } from "vitest";
import { codexAnswers } from "./codex-question-response.js";
import { codexQuestionSet, type QuestionSet } from "./codex-question-set.js";

const SCHEMA = "paperclip.question_response.v1";

/** The fake app-server's two questions (an option question with a custom answer, a text one). */
function askSet(isOther = true): QuestionSet {
  const set = codexQuestionSet({
    questions: [
      { id: "color", question: "Which colour?", options: [{ label: "red" }, { label: "blue" }], isOther },
      { id: "why", question: "Why that one?" },
    ],
  });
  if (set === null) throw new Error("the form is valid");
  return set;
}

const COLOR = { selectedOptionIds: ["option-2"] };
const WHY = { text: "calm" };
const answers = (value: unknown) => ({ schema: SCHEMA, answers: value });
const reason = (set: QuestionSet, response: unknown): string => {
  const outcome = codexAnswers(set, response);
  return outcome.ok ? "delivered" : outcome.reason;
};

// Each refusal in the words upstream's runner answered it with (test/codex-command-payload-edges-upstream.test.ts
// compares them through both runners).
const REFUSALS: readonly [string, unknown, string][] = [
  ["null", null, "runtime response must be an object"],
  ["an array", [], "runtime response must be an object"],
  [
    "an unknown field before the schema",
    { schema: "x", answers: {}, extra: 1 },
    "runtime response contains an unknown top-level field",
  ],
  [
    "no schema",
    { answers: { color: COLOR, why: WHY } },
    "runtime response requires paperclip.question_response.v1",
  ],
  ["answers null", { schema: SCHEMA, answers: null }, "runtime response answers are required"],
  ["no answers", { schema: SCHEMA }, "runtime response answers are required"],
  ["a missing answer before an unknown id", answers({ zzz: WHY }), "missing answer for color"],
  ["the set's order, not the keys'", answers({ why: {}, color: {} }), "color requires one selected option"],
  [
    "an answer that is not an object",
    answers({ color: "red", why: WHY }),
    "answer for color must be an object",
  ],
  [
    "an unknown answer field",
    answers({ color: { ...COLOR, extra: 1 }, why: WHY }),
    "answer for color contains an unknown field",
  ],
  ["no option", answers({ color: {}, why: WHY }), "color requires one selected option"],
  [
    "two options",
    answers({ color: { selectedOptionIds: ["option-1", "option-2"] }, why: WHY }),
    "color requires one selected option",
  ],
  [
    "options not a list",
    answers({ color: { selectedOptionIds: "option-2" }, why: WHY }),
    "color requires one selected option",
  ],
  [
    "an option id not a string",
    answers({ color: { selectedOptionIds: [5] }, why: WHY }),
    "selected option id is invalid",
  ],
  [
    "an unknown option",
    answers({ color: { selectedOptionIds: ["blue"] }, why: WHY }),
    "selected option is not available",
  ],
  [
    "an option and a custom answer",
    answers({ color: { ...COLOR, customText: null }, why: WHY }),
    "color must contain one selected option or one custom answer",
  ],
  [
    "a text for an option question",
    answers({ color: { text: null }, why: WHY }),
    "color must contain one selected option or one custom answer",
  ],
  [
    "an empty custom answer",
    answers({ color: { customText: "" }, why: WHY }),
    "color custom answer must be non-empty and bounded",
  ],
  [
    "a custom answer over 4000 bytes",
    answers({ color: { customText: "é".repeat(2001) }, why: WHY }),
    "color custom answer must be non-empty and bounded",
  ],
  ["no text", answers({ color: COLOR, why: {} }), "why requires text"],
  ["an empty text", answers({ color: COLOR, why: { text: "" } }), "why requires text"],
  [
    "a text over 4000 bytes",
    answers({ color: COLOR, why: { text: `${"é".repeat(2000)}x` } }),
    "why requires text",
  ],
  [
    "a text with an option field",
    answers({ color: COLOR, why: { text: "x", selectedOptionIds: null } }),
    "why text answer cannot contain select or custom fields",
  ],
  [
    "an unknown question after valid answers",
    answers({ color: COLOR, why: WHY, zzz: WHY }),
    "runtime response contains an unknown question id",
  ],
];

describe("a question response as Codex's answers, checked as upstream's runner checks it", () => {
  it.each(REFUSALS)("refuses %s", (_name, response, expected) => {
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
    if (set === null) throw new Error("the form is valid");
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
