// The refused answers to the fake app-server's "ask" (an option question with a custom answer,
// `color`, and a text question, `why`), each with the words upstream's runner refuses it in
// (after `Codex runtime response failed: `). The unit test of our checks and the differential
// test against upstream's runner read the same table, so every case is compared through both runners.

export const QUESTION_RESPONSE_SCHEMA = "paperclip.question_response.v1";
/**
 * The two questions of the tests' question sets, as `paperclip.question_set.v1` has them: an
 * option question with a custom answer, and a required text question. `COLOR` and `WHY` answer them.
 */
export const COLOR_WHY_QUESTIONS = [
  {
    id: "color",
    header: "Colour",
    prompt: "Which colour?",
    required: true,
    answerMode: "single_select",
    options: [
      { id: "option-1", label: "red", description: "warm" },
      { id: "option-2", label: "blue" },
    ],
    customAnswer: { enabled: true, label: "Other", placeholder: "Enter another answer" },
  },
  { id: "why", header: "Why", prompt: "Why that one?", required: true, answerMode: "text" },
] as const;
export const COLOR = { selectedOptionIds: ["option-2"] };
export const WHY = { text: "calm" };
export const answers = (value: unknown) => ({ schema: QUESTION_RESPONSE_SCHEMA, answers: value });

export const REFUSED_ANSWERS: readonly [string, unknown, string][] = [
  ["null", null, "runtime response must be an object"],
  ["an array", [], "runtime response must be an object"],
  [
    "an unknown field",
    { schema: "x", answers: {}, extra: 1 },
    "runtime response contains an unknown top-level field",
  ],
  [
    "another schema",
    { schema: "x", answers: { color: COLOR, why: WHY } },
    "runtime response requires paperclip.question_response.v1",
  ],
  ["no answers", { schema: QUESTION_RESPONSE_SCHEMA }, "runtime response answers are required"],
  [
    "answers a list",
    { schema: QUESTION_RESPONSE_SCHEMA, answers: [] },
    "runtime response answers are required",
  ],
  ["a missing answer before an unknown id", answers({ zzz: WHY }), "missing answer for color"],
  ["a missing text answer", answers({ color: COLOR }), "missing answer for why"],
  ["an answer not an object", answers({ color: "red", why: WHY }), "answer for color must be an object"],
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
    answers({ color: { ...COLOR, customText: "green" }, why: WHY }),
    "color must contain one selected option or one custom answer",
  ],
  [
    "a text for the option question",
    answers({ color: { text: "red" }, why: WHY }),
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
    "an unknown question",
    answers({ color: COLOR, why: WHY, zzz: WHY }),
    "runtime response contains an unknown question id",
  ],
  [
    "no schema",
    { answers: { color: COLOR, why: WHY } },
    "runtime response requires paperclip.question_response.v1",
  ],
  [
    "answers null",
    { schema: QUESTION_RESPONSE_SCHEMA, answers: null },
    "runtime response answers are required",
  ],
  ["the set's order, not the keys'", answers({ why: {}, color: {} }), "color requires one selected option"],
  [
    "an answer that is not an object",
    answers({ color: "red", why: WHY }),
    "answer for color must be an object",
  ],
  [
    "options not a list",
    answers({ color: { selectedOptionIds: "option-2" }, why: WHY }),
    "color requires one selected option",
  ],
  [
    "an option and a custom answer of null",
    answers({ color: { ...COLOR, customText: null }, why: WHY }),
    "color must contain one selected option or one custom answer",
  ],
  [
    "a text for an option question",
    answers({ color: { text: null }, why: WHY }),
    "color must contain one selected option or one custom answer",
  ],
  ["no text", answers({ color: COLOR, why: {} }), "why requires text"],
];
