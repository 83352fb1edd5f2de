import { describe, expect, it } from "vitest";
import { codexQuestionSet } from "./codex-question-set.js";

describe("Codex question forms as canonical question sets", () => {
  it("gives ids where Codex gave none, multi-selects, custom answers, redacted texts", () => {
    const set = codexQuestionSet({
      title: "Pick",
      questions: [
        {
          question: "token sk_live_abcdefghijklmnopqrstuv?",
          options: ["a", { label: "b" }],
          multiSelect: true,
        },
        { id: "free", question: "Anything else?", isOther: true },
      ],
    });
    expect(set?.title).toBe("Pick");
    expect(set?.questions[0]).toMatchObject({
      id: "question-1",
      answerMode: "multi_select",
      options: [
        { id: "option-1", label: "a" },
        { id: "option-2", label: "b" },
      ],
    });
    expect(set?.questions[0]?.prompt).not.toContain("abcdefghijklmnop");
    // A text question takes no custom answer (the canonical contract forbids it).
    // Codex waits for every answer: a question is required unless Codex says otherwise.
    expect(set?.questions[1]).toEqual({
      id: "free",
      prompt: "Anything else?",
      required: true,
      answerMode: "text",
    });
  });

  it("refuses a missing, duplicated or oversized form", () => {
    expect(codexQuestionSet({})).toBeNull();
    expect(codexQuestionSet({ questions: [] })).toBeNull();
    expect(codexQuestionSet({ questions: [{ id: "a" }, { id: "a" }] })).toBeNull();
    expect(codexQuestionSet({ questions: [{ question: "x".repeat(4001) }] })).toBeNull();
    expect(codexQuestionSet({ questions: [{ options: Array.from({ length: 129 }, () => "o") }] })).toBeNull();
  });
});
