import type { Question, QuestionSet } from "./codex-question-set.js";

/** Codex's answer to `item/tool/requestUserInput`: per question, the chosen label or the typed text. */
export type CodexAnswers = Record<string, { answers: string[] }>;

export type CodexAnswersOutcome = { ok: true; answers: CodexAnswers } | { ok: false; reason: string };

/** Upstream's bound on a typed or custom answer (UTF-8 bytes). */
const MAX_ANSWER_BYTES = 4000;

/** The fields a response and one answer may have (any other is refused by name, as upstream's). */
const RESPONSE_FIELDS: ReadonlySet<string> = new Set(["schema", "answers"]);
const ANSWER_FIELDS: ReadonlySet<string> = new Set(["selectedOptionIds", "customText", "text"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const has = (value: Record<string, unknown>, key: string): boolean => Object.hasOwn(value, key);

/** A typed or custom answer upstream's runner takes: a string, not empty, at most 4 000 bytes. */
const boundedAnswer = (value: unknown): value is string =>
  typeof value === "string" && value.length > 0 && Buffer.byteLength(value) <= MAX_ANSWER_BYTES;

const fail = (reason: string): CodexAnswersOutcome => ({ ok: false, reason });

/**
 * Pure: a `paperclip.question_response.v1` for `set` as Codex's answers, or why it does not
 * answer that set, in the order and words of upstream's runner (observed with its binary; the
 * caller prefixes `Codex runtime response failed: `): the response an object with `schema` and
 * `answers` only; then each question in the set's order (missing, not an object, an unknown field,
 * then its mode's checks); then an answer naming no question. A text question takes `text` alone;
 * an option question one selected option, or one custom answer where it allows one.
 */
export function codexAnswers(set: QuestionSet, response: unknown): CodexAnswersOutcome {
  if (!isRecord(response)) return fail("runtime response must be an object");
  if (Object.keys(response).some((key) => !RESPONSE_FIELDS.has(key)))
    return fail("runtime response contains an unknown top-level field");
  if (response.schema !== "paperclip.question_response.v1")
    return fail("runtime response requires paperclip.question_response.v1");
  const given = response.answers;
  if (!isRecord(given)) return fail("runtime response answers are required");
  const answers: CodexAnswers = {};
  for (const question of set.questions) {
    if (!has(given, question.id)) {
      if (question.required) return fail(`missing answer for ${question.id}`);
      continue;
    }
    const answer = given[question.id];
    if (!isRecord(answer)) return fail(`answer for ${question.id} must be an object`);
    if (Object.keys(answer).some((key) => !ANSWER_FIELDS.has(key)))
      return fail(`answer for ${question.id} contains an unknown field`);
    const checked =
      question.answerMode === "text" ? textAnswer(question, answer) : optionAnswer(question, answer);
    if (!checked.ok) return checked;
    answers[question.id] = { answers: checked.answers };
  }
  const ids = new Set(set.questions.map((question) => question.id));
  if (Object.keys(given).some((id) => !ids.has(id)))
    return fail("runtime response contains an unknown question id");
  return { ok: true, answers };
}

type Checked = { ok: true; answers: string[] } | { ok: false; reason: string };

function textAnswer(question: Question, answer: Record<string, unknown>): Checked {
  if (has(answer, "selectedOptionIds") || has(answer, "customText"))
    return { ok: false, reason: `${question.id} text answer cannot contain select or custom fields` };
  // White space alone is an answer; the empty text is not.
  if (!boundedAnswer(answer.text)) return { ok: false, reason: `${question.id} requires text` };
  return { ok: true, answers: [answer.text] };
}

function optionAnswer(question: Question, answer: Record<string, unknown>): Checked {
  const custom = has(answer, "customText");
  // A field given counts, whatever its value (`null` included), as in upstream's checks.
  if (has(answer, "text") || (custom && has(answer, "selectedOptionIds")))
    return { ok: false, reason: `${question.id} must contain one selected option or one custom answer` };
  if (custom) {
    if (question.customAnswer?.enabled !== true)
      return { ok: false, reason: `${question.id} does not allow a custom answer` };
    if (!boundedAnswer(answer.customText))
      return { ok: false, reason: `${question.id} custom answer must be non-empty and bounded` };
    return { ok: true, answers: [answer.customText] };
  }
  const selected = answer.selectedOptionIds;
  // Codex asks single-select questions only (upstream's runner reads no `multiSelect`); ours
  // passes a multi-select on, and takes one or more options for it.
  const multi = question.answerMode === "multi_select";
  if (!Array.isArray(selected) || selected.length === 0 || (!multi && selected.length !== 1))
    return {
      ok: false,
      reason: multi
        ? `${question.id} requires at least one selected option`
        : `${question.id} requires one selected option`,
    };
  const labels: string[] = [];
  for (const optionId of selected) {
    if (typeof optionId !== "string") return { ok: false, reason: "selected option id is invalid" };
    const option = question.options?.find((candidate) => candidate.id === optionId);
    if (option === undefined) return { ok: false, reason: "selected option is not available" };
    labels.push(option.label);
  }
  return { ok: true, answers: labels };
}
