import type { Question, QuestionSet } from "./codex-question-set.js";
import { textValidationProblem } from "./opencode-text-validation.js";

export type OpencodeResponseOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const RESPONSE_FIELDS: ReadonlySet<string> = new Set(["schema", "answers"]);
const ANSWER_FIELDS: ReadonlySet<string> = new Set(["selectedOptionIds", "text", "customText"]);
/** What upstream's runner says of any response its question-response schema refuses. */
const SCHEMA_FAILED = "response failed the Paperclip question-response schema";
/** The schema's bounds (`maxLength` counts code points): a question or option id, a text. */
const MAX_ID_CHARS = 160;
const MAX_TEXT_CHARS = 100_000;
/** Upstream's text bound past the schema, in UTF-16 units (the server's own measure of a string). */
const MAX_TEXT_UNITS = 100_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const fail = (reason: string): OpencodeResponseOutcome => ({ ok: false, reason });

const codePoints = (text: string): number => {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
};
const isId = (value: unknown): boolean =>
  typeof value === "string" && value !== "" && codePoints(value) <= MAX_ID_CHARS;
const isText = (value: unknown): boolean =>
  value === undefined || (typeof value === "string" && codePoints(value) <= MAX_TEXT_CHARS);

/** Unique option ids, each an id. */
const isSelection = (value: unknown): boolean =>
  value === undefined || (Array.isArray(value) && value.every(isId) && new Set(value).size === value.length);

/**
 * The question-response schema upstream's runner embeds: `{schema, answers:{<id>:{selectedOptionIds?,
 * text?, customText?}}}`, ids of 1 to 160 characters, option ids unique, texts at most 100 000.
 */
function schemaHolds(response: unknown): response is { answers: Record<string, Record<string, unknown>> } {
  if (!isRecord(response) || Object.keys(response).some((key) => !RESPONSE_FIELDS.has(key))) return false;
  if (response.schema !== "paperclip.question_response.v1" || !isRecord(response.answers)) return false;
  return Object.entries(response.answers).every(
    ([id, answer]) =>
      isId(id) &&
      isRecord(answer) &&
      Object.keys(answer).every((key) => ANSWER_FIELDS.has(key)) &&
      isSelection(answer.selectedOptionIds) &&
      isText(answer.text) &&
      isText(answer.customText),
  );
}

/** Whether a text of the answer is past upstream's bound in UTF-16 units (within the schema's code points). */
const pastTextBound = (answer: Record<string, unknown>): boolean =>
  [answer.text, answer.customText].some((text) => typeof text === "string" && text.length > MAX_TEXT_UNITS);

/**
 * Pure: whether a `paperclip.question_response.v1` answers the OpenCode question set, or why
 * not, in the order and words of upstream's runner (observed with its binary; the caller
 * prefixes `OpenCode runtime response failed: `): the schema's shape and bounds first, then a
 * question id not in the set, then each question in the set's order, its text bound before the
 * rest, a text question's `textValidation` last. An answer given empty is refused, "required"
 * or "empty" as the question is.
 * The response is delivered to the proxy as given, which answers OpenCode with it.
 */
export function opencodeResponseProblem(set: QuestionSet, response: unknown): OpencodeResponseOutcome {
  if (!schemaHolds(response)) return fail(SCHEMA_FAILED);
  const ids = new Set(set.questions.map((question) => question.id));
  if (Object.keys(response.answers).some((id) => !ids.has(id)))
    return fail("question response contains an unknown question id");
  for (const question of set.questions) {
    const answer = response.answers[question.id];
    if (answer === undefined) {
      if (question.required) return fail(`question response is missing required answer ${question.id}`);
      continue;
    }
    if (pastTextBound(answer)) return fail(`question response answer ${question.id} exceeds its text bound`);
    const problem =
      question.answerMode === "text" ? textProblem(question, answer) : selectProblem(question, answer);
    if (problem !== null) return fail(problem);
  }
  return { ok: true };
}

/** A text that is more than white space (JavaScript's, as upstream's runner trims it; a text of white space is empty). */
const filled = (value: unknown): boolean => typeof value === "string" && value.trim() !== "";

/** An answer given empty: upstream's runner refuses it, required or not (an optional question is left out instead). */
const empty = (question: Question): string =>
  `question response answer ${question.id} is ${question.required ? "required" : "empty"}`;

function textProblem(question: Question, answer: Record<string, unknown>): string | null {
  // An empty selection is none (upstream's runner delivers `{text, selectedOptionIds: []}`).
  const selected = (answer.selectedOptionIds ?? []) as string[];
  if (selected.length > 0 || answer.customText !== undefined)
    return `text answer ${question.id} cannot contain selection fields`;
  if (!filled(answer.text)) return empty(question);
  return textValidationProblem(question.id, question.textValidation, answer.text as string);
}

function selectProblem(question: Question, answer: Record<string, unknown>): string | null {
  if (answer.text !== undefined) return `select answer ${question.id} cannot contain text`;
  const selected = (answer.selectedOptionIds ?? []) as string[];
  if (selected.some((id) => !question.options?.some((option) => option.id === id)))
    return `select answer ${question.id} contains an unknown option`;
  const single = question.answerMode === "single_select";
  if (single && selected.length > 1) return `single-select answer ${question.id} chose multiple options`;
  if (answer.customText !== undefined && question.customAnswer?.enabled !== true)
    return `select answer ${question.id} does not allow custom text`;
  if (single && selected.length > 0 && filled(answer.customText))
    return `single-select answer ${question.id} cannot combine an option and custom text`;
  if (selected.length === 0 && !filled(answer.customText)) return empty(question);
  return null;
}
