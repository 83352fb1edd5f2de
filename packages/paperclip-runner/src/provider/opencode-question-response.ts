import type { Question, QuestionSet } from "./codex-question-set.js";

export type OpencodeResponseOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const RESPONSE_FIELDS: ReadonlySet<string> = new Set(["schema", "answers"]);
const ANSWER_FIELDS: ReadonlySet<string> = new Set(["selectedOptionIds", "text", "customText"]);
/** What upstream's runner says of any response its question-response schema refuses. */
const SCHEMA_FAILED = "response failed the Paperclip question-response schema";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const fail = (reason: string): OpencodeResponseOutcome => ({ ok: false, reason });

/** The shape the question-response schema takes: `{schema, answers:{<id>:{selectedOptionIds?, text?, customText?}}}`. */
function schemaHolds(response: unknown): response is { answers: Record<string, Record<string, unknown>> } {
  if (!isRecord(response) || Object.keys(response).some((key) => !RESPONSE_FIELDS.has(key))) return false;
  if (response.schema !== "paperclip.question_response.v1" || !isRecord(response.answers)) return false;
  return Object.values(response.answers).every(
    (answer) =>
      isRecord(answer) &&
      Object.keys(answer).every((key) => ANSWER_FIELDS.has(key)) &&
      (answer.selectedOptionIds === undefined ||
        (Array.isArray(answer.selectedOptionIds) &&
          answer.selectedOptionIds.every((id) => typeof id === "string"))) &&
      (answer.text === undefined || typeof answer.text === "string") &&
      (answer.customText === undefined || typeof answer.customText === "string"),
  );
}

/**
 * Pure: whether a `paperclip.question_response.v1` answers the OpenCode question set, or why
 * not, in the order and words of upstream's runner (observed with its binary; the caller
 * prefixes `OpenCode runtime response failed: `): the schema's shape first, then a question id
 * not in the set, then each question in the set's order. An empty text counts as no answer.
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
    const problem =
      question.answerMode === "text" ? textProblem(question, answer) : selectProblem(question, answer);
    if (problem !== null) return fail(problem);
  }
  return { ok: true };
}

const filled = (value: unknown): boolean => typeof value === "string" && value !== "";

function textProblem(question: Question, answer: Record<string, unknown>): string | null {
  // An empty selection is none (upstream's runner delivers `{text, selectedOptionIds: []}`).
  const selected = (answer.selectedOptionIds ?? []) as string[];
  if (selected.length > 0 || answer.customText !== undefined)
    return `text answer ${question.id} cannot contain selection fields`;
  if (question.required && !filled(answer.text)) return `question response answer ${question.id} is required`;
  return null;
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
  if (question.required && selected.length === 0 && !filled(answer.customText))
    return `question response answer ${question.id} is required`;
  return null;
}
