import { describe, expect, it } from "vitest";
import {
  codexQuestionSet,
  OPTION_REFUSED,
  QUESTION_COUNT_REFUSED,
  QUESTION_ID_REFUSED,
  type QuestionSet,
} from "./codex-question-set.js";

function accepted(params: Record<string, unknown>): QuestionSet {
  const set = codexQuestionSet(params);
  if (set === null || "refused" in set) throw new Error(`refused: ${JSON.stringify(set)}`);
  return set;
}

const options = (count: number) => Array.from({ length: count }, (_, index) => ({ label: `o${index}` }));

describe("Codex question forms as canonical question sets", () => {
  it("multi-selects, custom answers, text questions with no options, redacted texts", () => {
    const set = accepted({
      title: "Pick",
      questions: [
        {
          id: "pick",
          question: "token sk_live_abcdefghijklmnopqrstuv?",
          options: ["a", { label: "b" }],
          multiSelect: true,
        },
        { id: "free", question: "Anything else?", isOther: true },
      ],
    });
    expect(set.title).toBe("Pick");
    expect(set.questions[0]).toMatchObject({
      id: "pick",
      answerMode: "multi_select",
      options: [
        { id: "option-1", label: "a" },
        { id: "option-2", label: "b" },
      ],
    });
    expect(set.questions[0]?.prompt).not.toContain("abcdefghijklmnop");
    // A text question takes no custom answer (the canonical contract forbids it), and carries
    // an empty option list, as upstream's runner sends it. Codex waits for every answer: a
    // question is required unless Codex says otherwise.
    expect(set.questions[1]).toEqual({
      id: "free",
      prompt: "Anything else?",
      required: true,
      answerMode: "text",
      options: [],
    });
  });

  it("cuts long texts to upstream's bounds in characters, not refusing them", () => {
    const set = accepted({
      questions: [
        {
          id: "q",
          header: "é".repeat(100),
          question: "q".repeat(5000),
          options: [{ label: "😀".repeat(300), description: "d".repeat(1200) }],
        },
      ],
    });
    const [question] = set.questions;
    expect(question?.header).toBe("é".repeat(80));
    expect(question?.prompt).toBe("q".repeat(4000));
    expect(question?.options?.[0]).toEqual({
      id: "option-1",
      label: "😀".repeat(240),
      description: "d".repeat(1000),
    });
  });

  it("refuses in upstream's words what upstream's runner refuses", () => {
    const question = { id: "q", question: "Q?" };
    expect(codexQuestionSet({})).toEqual({ refused: QUESTION_COUNT_REFUSED });
    expect(codexQuestionSet({ questions: [] })).toEqual({ refused: QUESTION_COUNT_REFUSED });
    const four = ["a", "b", "c", "d"].map((id) => ({ ...question, id }));
    expect(codexQuestionSet({ questions: four })).toEqual({ refused: QUESTION_COUNT_REFUSED });
    expect(codexQuestionSet({ questions: four.slice(0, 3) })).toHaveProperty("questions");
    expect(codexQuestionSet({ questions: [{ question: "Q?" }] })).toEqual({ refused: QUESTION_ID_REFUSED });
    expect(codexQuestionSet({ questions: [{ ...question, id: "i".repeat(161) }] })).toEqual({
      refused: QUESTION_ID_REFUSED,
    });
    expect(codexQuestionSet({ questions: [{ ...question, id: "i".repeat(160) }] })).toHaveProperty(
      "questions",
    );
    expect(codexQuestionSet({ questions: [{ ...question, options: options(65) }] })).toEqual({
      refused: OPTION_REFUSED,
    });
    expect(codexQuestionSet({ questions: [{ ...question, options: options(64) }] })).toHaveProperty(
      "questions",
    );
    expect(codexQuestionSet({ questions: [{ ...question, options: [{ label: "" }] }] })).toEqual({
      refused: OPTION_REFUSED,
    });
  });

  it("takes no form with a question id twice", () => {
    expect(codexQuestionSet({ questions: [{ id: "a" }, { id: "a" }] })).toBeNull();
  });
});
