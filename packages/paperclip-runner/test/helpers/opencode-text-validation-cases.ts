import { answers } from "./question-response-refusals.js";

// A question set with `textValidation` (the OpenCode proxy may forward one) and the answers
// upstream's runner refuses, with its words (after `OpenCode runtime response failed: `), and
// takes, as its binary answered them: lengths in UTF-16 units before the pattern, which is
// searched anywhere in the text; an optional question answered empty is refused as "empty".
// The unit test of our checks and the differential test read the same tables.

export const VALIDATED_QUESTION = {
  schema: "paperclip.question_set.v1",
  title: "OpenCode needs your input",
  submitLabel: "Submit answers",
  questions: [
    {
      id: "name",
      prompt: "Name?",
      required: true,
      answerMode: "text",
      textValidation: { minLength: 5, maxLength: 10, pattern: "[a-z]+" },
    },
    { id: "emo", prompt: "Mood?", required: false, answerMode: "text", textValidation: { maxLength: 5 } },
    {
      id: "pick",
      prompt: "Pick?",
      required: false,
      answerMode: "single_select",
      options: [{ id: "o1", label: "one" }],
      customAnswer: { enabled: true, label: "Other", placeholder: "Enter another answer" },
    },
  ],
} as const;

const NAME = { text: "abcdef" };
const LENGTH = (id: string) => `answer ${id} violates its text length constraint`;
const EMPTY = (id: string) => `question response answer ${id} is empty`;

export const VALIDATION_REFUSALS: readonly [string, unknown, string][] = [
  ["a short text that matches", answers({ name: { text: "ab" } }), LENGTH("name")],
  ["a short text that does not match", answers({ name: { text: "AB" } }), LENGTH("name")],
  ["a long text", answers({ name: { text: "abcdefghijklmnop" } }), LENGTH("name")],
  [
    "a text the pattern does not find",
    answers({ name: { text: "ABCDEFGH" } }),
    "answer name does not match its required pattern",
  ],
  [
    "an empty required text, before its length",
    answers({ name: { text: "" } }),
    "question response answer name is required",
  ],
  [
    "five emoji past a length of five (ten UTF-16 units)",
    answers({ name: NAME, emo: { text: "😀".repeat(5) } }),
    LENGTH("emo"),
  ],
  ["an optional text given empty", answers({ name: NAME, emo: { text: "" } }), EMPTY("emo")],
  ["an optional text given nothing", answers({ name: NAME, emo: {} }), EMPTY("emo")],
  ["an optional selection given nothing", answers({ name: NAME, pick: {} }), EMPTY("pick")],
  [
    "an optional selection given an empty list",
    answers({ name: NAME, pick: { selectedOptionIds: [] } }),
    EMPTY("pick"),
  ],
  ["an optional custom answer given empty", answers({ name: NAME, pick: { customText: "" } }), EMPTY("pick")],
];

export const VALIDATION_ANSWERS: readonly [string, unknown][] = [
  ["the pattern found within the text", answers({ name: { text: "ABCDEabc" } })],
  ["five two-byte characters within a length of five", answers({ name: NAME, emo: { text: "é".repeat(5) } })],
  ["the optional questions left out", answers({ name: NAME })],
];
