import {
  answers,
  COLOR,
  COLOR_WHY_QUESTIONS,
  QUESTION_RESPONSE_SCHEMA,
  WHY,
} from "./question-response-refusals.js";

// The refused answers to the fake OpenCode proxy's question (`OPENCODE_QUESTION`: an option
// question with a custom answer, `color`, and a required text question, `why`), each with the
// words upstream's runner refuses it in (after `OpenCode runtime response failed: `), as its
// binary answered them. The unit test of our checks and the differential test read the same table.

/** The question set the fake proxy forwards, as the server's proxy builds one from OpenCode's `question.asked`. */
export const OPENCODE_QUESTION = {
  schema: "paperclip.question_set.v1",
  title: "OpenCode needs your input",
  submitLabel: "Submit answers",
  questions: COLOR_WHY_QUESTIONS,
} as const;

const SCHEMA = "response failed the Paperclip question-response schema";

export const OPENCODE_REFUSED_ANSWERS: readonly [string, unknown, string][] = [
  ["null", null, SCHEMA],
  ["an array", [], SCHEMA],
  ["an unknown field", { schema: QUESTION_RESPONSE_SCHEMA, answers: {}, extra: 1 }, SCHEMA],
  ["another schema", { schema: "x", answers: { color: COLOR, why: WHY } }, SCHEMA],
  ["no answers", { schema: QUESTION_RESPONSE_SCHEMA }, SCHEMA],
  ["answers a list", { schema: QUESTION_RESPONSE_SCHEMA, answers: [] }, SCHEMA],
  ["an answer not an object", answers({ color: "red", why: WHY }), SCHEMA],
  ["an unknown answer field", answers({ color: { ...COLOR, extra: 1 }, why: WHY }), SCHEMA],
  ["an option id not a string", answers({ color: { selectedOptionIds: [5] }, why: WHY }), SCHEMA],
  ["options not a list", answers({ color: { selectedOptionIds: "option-2" }, why: WHY }), SCHEMA],
  ["a custom answer of null", answers({ color: { ...COLOR, customText: null }, why: WHY }), SCHEMA],
  ["a text of null", answers({ color: { text: null }, why: WHY }), SCHEMA],
  ["a selection of null", answers({ color: COLOR, why: { text: "x", selectedOptionIds: null } }), SCHEMA],
  [
    "an unknown id before a missing answer",
    answers({ zzz: WHY }),
    "question response contains an unknown question id",
  ],
  ["a missing text answer", answers({ color: COLOR }), "question response is missing required answer why"],
  ["no option", answers({ color: {}, why: WHY }), "question response answer color is required"],
  [
    "two options",
    answers({ color: { selectedOptionIds: ["option-1", "option-2"] }, why: WHY }),
    "single-select answer color chose multiple options",
  ],
  [
    "an unknown option",
    answers({ color: { selectedOptionIds: ["blue"] }, why: WHY }),
    "select answer color contains an unknown option",
  ],
  [
    "an option and a custom answer",
    answers({ color: { ...COLOR, customText: "green" }, why: WHY }),
    "single-select answer color cannot combine an option and custom text",
  ],
  [
    "a text for the option question",
    answers({ color: { text: "red" }, why: WHY }),
    "select answer color cannot contain text",
  ],
  [
    "an empty custom answer",
    answers({ color: { customText: "" }, why: WHY }),
    "question response answer color is required",
  ],
  ["an empty text", answers({ color: COLOR, why: { text: "" } }), "question response answer why is required"],
  ["no text", answers({ color: COLOR, why: {} }), "question response answer why is required"],
  [
    "the set's order, not the keys'",
    answers({ why: {}, color: {} }),
    "question response answer color is required",
  ],
];
