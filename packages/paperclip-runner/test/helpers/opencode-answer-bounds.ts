import { answers, COLOR, WHY } from "./question-response-refusals.js";

// How upstream's runner bounds the answers to the fake OpenCode proxy's question (`color`, an
// option question with a custom answer, then `why`, a required text), as its binary answered
// them (after `OpenCode runtime response failed: `): the question-response schema it embeds
// (ids of 1 to 160 characters, option ids unique, texts of at most 100 000 characters, counted
// in code points), then a text bound of 100 000 UTF-16 units, checked for each question in the
// set's order before the rest of its answer. The unit test of our checks and the differential
// test read the same tables.

const SCHEMA = "response failed the Paperclip question-response schema";
/** 50 001 emoji: 50 001 code points (within the schema) but 100 002 UTF-16 units. */
const PAST_UNITS = "😀".repeat(50_001);
const bound = (id: string) => `question response answer ${id} exceeds its text bound`;

export const OPENCODE_BOUND_REFUSALS: readonly [string, unknown, string][] = [
  ["an answer id of 161 characters", answers({ color: COLOR, why: WHY, ["k".repeat(161)]: WHY }), SCHEMA],
  ["an empty answer id", answers({ color: COLOR, why: WHY, "": WHY }), SCHEMA],
  ["an option twice", answers({ color: { selectedOptionIds: ["option-2", "option-2"] }, why: WHY }), SCHEMA],
  ["an empty option id", answers({ color: { selectedOptionIds: [""] }, why: WHY }), SCHEMA],
  [
    "an option id of 161 characters",
    answers({ color: { selectedOptionIds: ["o".repeat(161)] }, why: WHY }),
    SCHEMA,
  ],
  ["a text of 100 001 characters", answers({ color: COLOR, why: { text: "x".repeat(100_001) } }), SCHEMA],
  [
    "a custom answer of 100 001 characters",
    answers({ color: { customText: "x".repeat(100_001) }, why: WHY }),
    SCHEMA,
  ],
  [
    "a text of 100 001 UTF-16 units",
    answers({ color: COLOR, why: { text: `😀${"x".repeat(99_999)}` } }),
    bound("why"),
  ],
  [
    "a custom answer past the text bound",
    answers({ color: { customText: PAST_UNITS }, why: WHY }),
    bound("color"),
  ],
  [
    "the text bound before an unknown option",
    answers({ color: { selectedOptionIds: ["nope"], customText: PAST_UNITS }, why: WHY }),
    bound("color"),
  ],
  [
    "the text bound before a text's selection fields",
    answers({ color: COLOR, why: { text: PAST_UNITS, customText: "x" } }),
    bound("why"),
  ],
  [
    "an earlier question's answer before a later text bound",
    answers({ color: { customText: "" }, why: { text: PAST_UNITS } }),
    "question response answer color is required",
  ],
  [
    "an unknown id before the text bound",
    answers({ color: COLOR, why: WHY, zzz: { text: PAST_UNITS } }),
    "question response contains an unknown question id",
  ],
];

/** Answers at the bounds that upstream's runner delivers. */
export const OPENCODE_BOUND_ANSWERS: readonly [string, unknown][] = [
  ["a text of 100 000 characters", answers({ color: COLOR, why: { text: "x".repeat(100_000) } })],
  ["100 000 two-byte characters", answers({ color: COLOR, why: { text: "é".repeat(100_000) } })],
  [
    "66 667 three-byte characters (200 001 bytes)",
    answers({ color: COLOR, why: { text: "中".repeat(66_667) } }),
  ],
  [
    "a custom answer of 100 000 characters",
    answers({ color: { customText: "x".repeat(100_000) }, why: WHY }),
  ],
];
