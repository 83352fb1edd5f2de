import { answers } from "./question-response-refusals.js";

// A question set whose text questions carry `textValidation`'s `inputType`, `minimum` and
// `maximum`, and answers with what upstream's runner (2026.916.1) said of each, observed with
// its binary. Every question is optional but the last, `last`, which no answer gives: an answer
// the checks take is refused as missing `last`, so one request judges every answer in turn.
// The unit test of our checks and the differential test read the same table.

const text = (id: string, textValidation: Record<string, unknown>) => ({
  id,
  prompt: `${id}?`,
  required: false,
  answerMode: "text",
  textValidation,
});

export const NUMERIC_QUESTION = {
  schema: "paperclip.question_set.v1",
  title: "OpenCode needs your input",
  submitLabel: "Submit answers",
  questions: [
    text("num", { inputType: "number", minimum: 1, maximum: 10 }),
    text("int", { inputType: "integer", minimum: 1, maximum: 10 }),
    // Bounds on a text question are not judged.
    text("txt", { inputType: "text", minimum: 1, maximum: 10 }),
    text("bare", { minimum: 1, maximum: 10 }),
    text("checked", { inputType: "number", minLength: 2, maximum: 50, pattern: "^[0-9]+$" }),
    text("whole", { inputType: "integer" }),
    {
      id: "pick",
      prompt: "pick?",
      required: false,
      answerMode: "single_select",
      options: [{ id: "o1", label: "one" }],
      customAnswer: { enabled: true, label: "Other", placeholder: "Enter another answer" },
    },
    { id: "last", prompt: "last?", required: true, answerMode: "text" },
  ],
} as const;

/** What upstream says of an answer its checks take. */
export const TAKEN = "question response is missing required answer last";
const NUMERIC = (id: string) => `answer ${id} must be numeric`;
const RANGE = (id: string) => `answer ${id} violates its numeric constraint`;

/** [question id, the answer's text (or the whole answer), upstream's words]. */
export const NUMERIC_CASES: readonly (readonly [string, string | Record<string, unknown>, string])[] = [
  ["num", "5", TAKEN],
  ["num", "abc", NUMERIC("num")],
  ["num", "0", RANGE("num")],
  ["num", "11", RANGE("num")],
  ["num", "5.5", TAKEN],
  ["num", "1e1", TAKEN],
  ["num", "1E1", TAKEN],
  ["num", "+5", TAKEN],
  ["num", "1.", TAKEN],
  ["num", "+.5e1", TAKEN],
  ["num", "00005", TAKEN],
  ["num", " 5", TAKEN],
  ["num", "\t5\n", TAKEN],
  ["num", "\u00a05\u3000", TAKEN],
  ["num", "\ufeff5", TAKEN],
  ["num", "\u00855", NUMERIC("num")],
  ["num", "\u180e5", NUMERIC("num")],
  ["num", "0x5", TAKEN],
  ["num", "0X0a", TAKEN],
  ["num", "0b101", TAKEN],
  ["num", "0o7", TAKEN],
  ["num", "0x50", RANGE("num")],
  ["num", "-0x5", NUMERIC("num")],
  ["num", "+0x5", NUMERIC("num")],
  ["num", "0x5.5", NUMERIC("num")],
  ["num", "0x", NUMERIC("num")],
  ["num", "0b2", NUMERIC("num")],
  ["num", "1_0", NUMERIC("num")],
  ["num", "1,5", NUMERIC("num")],
  ["num", "1e", NUMERIC("num")],
  ["num", ".", NUMERIC("num")],
  ["num", "-", NUMERIC("num")],
  ["num", "\uff15", NUMERIC("num")],
  ["num", "infinit", NUMERIC("num")],
  ["num", "inf", RANGE("num")],
  ["num", "-Infinity", RANGE("num")],
  ["num", "iNf", RANGE("num")],
  ["num", "NaN", RANGE("num")],
  ["num", "+nan", RANGE("num")],
  ["num", "1e400", RANGE("num")],
  ["num", "-0", RANGE("num")],
  ["num", ".5", RANGE("num")],
  ["num", "10.000000000000001", RANGE("num")],
  ["int", "5", TAKEN],
  ["int", "5.0", TAKEN],
  ["int", "0.1e1", TAKEN],
  ["int", "4.9999999999999999999", TAKEN],
  ["int", "0x5", TAKEN],
  ["int", "5.5", RANGE("int")],
  ["int", "1e-1", RANGE("int")],
  ["int", "abc", NUMERIC("int")],
  ["int", "11", RANGE("int")],
  ["int", "nan", RANGE("int")],
  ["txt", "abc", TAKEN],
  ["txt", "11", TAKEN],
  ["bare", "abc", TAKEN],
  ["bare", "0", TAKEN],
  // The length, then the pattern, then the value.
  ["checked", "5", "answer checked violates its text length constraint"],
  ["checked", "ab", "answer checked does not match its required pattern"],
  ["checked", "5.5", "answer checked does not match its required pattern"],
  ["checked", "60", RANGE("checked")],
  ["checked", "50", TAKEN],
  ["whole", "99999999999999999999", TAKEN],
  ["whole", "1e20", TAKEN],
  ["whole", "-7", TAKEN],
  ["whole", `0x${"F".repeat(40)}`, TAKEN],
  ["whole", `0x${"F".repeat(300)}`, RANGE("whole")],
  ["whole", "5.5", RANGE("whole")],
  ["whole", "-inf", RANGE("whole")],
  // A text of white space (JavaScript's) is empty, a number-typed one too.
  ["txt", " ", "question response answer txt is empty"],
  ["txt", "\ufeff\u3000", "question response answer txt is empty"],
  ["num", "\t", "question response answer num is empty"],
  ["txt", "\u0085", TAKEN],
  ["pick", { customText: " " }, "question response answer pick is empty"],
  ["pick", { customText: " x " }, TAKEN],
];

export const numericAnswer = (id: string, value: string | Record<string, unknown>): unknown =>
  answers({ [id]: typeof value === "string" ? { text: value } : value });
