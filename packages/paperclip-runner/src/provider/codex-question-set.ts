import { redactSecrets } from "@paperclipai/errors";
import type { TextValidation } from "./opencode-text-validation.js";

/** A `paperclip.question_set.v1` as the runner builds it from Codex's `item/tool/requestUserInput`. */
export interface QuestionSet {
  readonly schema: "paperclip.question_set.v1";
  readonly title: string;
  readonly submitLabel: string;
  readonly questions: readonly Question[];
}

export interface Question {
  readonly id: string;
  readonly header?: string;
  readonly prompt: string;
  readonly required: boolean;
  readonly answerMode: "single_select" | "multi_select" | "text";
  readonly options?: readonly {
    readonly id: string;
    readonly label: string;
    readonly description?: string;
  }[];
  readonly customAnswer?: { readonly enabled: true; readonly label: string; readonly placeholder: string };
  /** A text question's bounds (the OpenCode proxy may send them; Codex's questions have none). */
  readonly textValidation?: TextValidation;
}

const MAX_QUESTIONS = 64;
const MAX_OPTIONS = 128;

function text(value: unknown, fallback = ""): string {
  return typeof value === "string" ? value : fallback;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Redacted provider text, refused (null) when over its bound, as the shipped adapter does. */
function boundedField(value: string, max: number): string | null {
  const redacted = redactSecrets(value);
  return redacted.length > max ? null : redacted;
}

/**
 * Pure: Codex's question form as the canonical question set, as the shipped Codex question
 * adapter (`codex-question-adapter.js`) converts it: stable ids (`question-N`, `option-N` where
 * Codex gave none), options become a single (or multi) select, `isOther` a custom answer, texts
 * redacted. Null when the form is missing or invalid (duplicate ids, over its bounds).
 */
export function codexQuestionSet(params: Record<string, unknown>): QuestionSet | null {
  const raw = params.questions;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_QUESTIONS) return null;
  const ids = new Set<string>();
  const questions: Question[] = [];
  for (const [index, entry] of raw.entries()) {
    const question = record(entry);
    const id = text(question.id).trim() || `question-${index + 1}`;
    if (id.length > 160 || ids.has(id)) return null;
    ids.add(id);
    const options = codexOptions(question.options);
    if (options === null) return null;
    const prompt = boundedField(
      text(question.question, text(question.prompt, `Question ${index + 1}`)),
      4000,
    );
    const header = text(question.header) ? boundedField(text(question.header), 1000) : undefined;
    if (prompt === null || header === null) return null;
    const select = options.length > 0;
    questions.push({
      id,
      ...(header === undefined ? {} : { header }),
      prompt,
      // Codex waits for an answer to every question it asks (upstream's runner marks them required).
      required: question.required !== false,
      answerMode: select ? (question.multiSelect === true ? "multi_select" : "single_select") : "text",
      ...(select ? { options } : {}),
      ...(select && question.isOther === true
        ? { customAnswer: { enabled: true, label: "Other", placeholder: "Enter another answer" } }
        : {}),
    });
  }
  const title = boundedField(text(params.title, "Codex input"), 1000);
  if (title === null) return null;
  return { schema: "paperclip.question_set.v1", title, submitLabel: "Submit answers", questions };
}

function codexOptions(value: unknown): NonNullable<Question["options"]> | null {
  if (!Array.isArray(value)) return [];
  if (value.length > MAX_OPTIONS) return null;
  const options: { id: string; label: string; description?: string }[] = [];
  for (const [index, entry] of value.entries()) {
    const option = record(entry);
    const label = boundedField(
      text(option.label, text(entry, `Option ${index + 1}`)) || `Option ${index + 1}`,
      1000,
    );
    if (label === null) return null;
    const description = text(option.description) ? boundedField(text(option.description), 4000) : undefined;
    if (description === null) return null;
    options.push({ id: `option-${index + 1}`, label, ...(description === undefined ? {} : { description }) });
  }
  return options;
}
