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

/** Upstream's runner fails the provider (and exits 1) on these, in these words. */
export const QUESTION_COUNT_REFUSED = "Codex user-input request must contain one to three questions";
export const QUESTION_ID_REFUSED = "Codex question id is invalid";
export const OPTION_REFUSED = "Codex question contains an invalid option";

/** A form upstream's runner refuses outright: the provider fails with `reason`. */
export interface RefusedQuestionForm {
  readonly refused: string;
}

// Upstream's bounds, measured against its runner: longer texts are cut (in characters), more
// questions or options, or a longer id, are refused.
const MAX_QUESTIONS = 3;
const MAX_OPTIONS = 64;
const MAX_ID_CHARS = 160;
const HEADER_CHARS = 80;
const PROMPT_CHARS = 4000;
const LABEL_CHARS = 240;
const DESCRIPTION_CHARS = 1000;
const TITLE_CHARS = 1000;

function text(value: unknown, fallback = ""): string {
  return typeof value === "string" ? value : fallback;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Redacted provider text, cut to `max` characters (code points), as upstream's runner cuts it. */
function boundedField(value: string, max: number): string {
  const redacted = redactSecrets(value);
  if (redacted.length <= max) return redacted;
  return Array.from(redacted).slice(0, max).join("");
}

/**
 * Pure: Codex's question form as the canonical question set, as upstream's runner converts it:
 * one to three questions, each with its own id (1 to 160 characters), options (at most 64, each
 * with a label) become a single (or multi) select, `isOther` a custom answer, a question without
 * options a text question (`options: []`), texts redacted and cut. Refused (`{refused}`, upstream's
 * words) where upstream's runner fails the provider; null when the form is otherwise unusable
 * (duplicate ids).
 */
export function codexQuestionSet(params: Record<string, unknown>): QuestionSet | RefusedQuestionForm | null {
  const raw = params.questions;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_QUESTIONS)
    return { refused: QUESTION_COUNT_REFUSED };
  const ids = new Set<string>();
  const questions: Question[] = [];
  for (const [index, entry] of raw.entries()) {
    const question = record(entry);
    const id = text(question.id);
    if (id.trim() === "" || Array.from(id).length > MAX_ID_CHARS) return { refused: QUESTION_ID_REFUSED };
    if (ids.has(id)) return null;
    ids.add(id);
    const options = codexOptions(question.options);
    if (options === null) return { refused: OPTION_REFUSED };
    const prompt = boundedField(
      text(question.question, text(question.prompt, `Question ${index + 1}`)),
      PROMPT_CHARS,
    );
    const header = text(question.header) ? boundedField(text(question.header), HEADER_CHARS) : undefined;
    const select = options.length > 0;
    questions.push({
      id,
      ...(header === undefined ? {} : { header }),
      prompt,
      // Codex waits for an answer to every question it asks (upstream's runner marks them required).
      required: question.required !== false,
      answerMode: select ? (question.multiSelect === true ? "multi_select" : "single_select") : "text",
      options,
      ...(select && question.isOther === true
        ? { customAnswer: { enabled: true, label: "Other", placeholder: "Enter another answer" } }
        : {}),
    });
  }
  const title = boundedField(text(params.title, "Codex input"), TITLE_CHARS);
  return { schema: "paperclip.question_set.v1", title, submitLabel: "Submit answers", questions };
}

/** The options, or null when upstream's runner refuses them (too many, one without a label). */
function codexOptions(value: unknown): NonNullable<Question["options"]> | null {
  if (!Array.isArray(value)) return [];
  if (value.length > MAX_OPTIONS) return null;
  const options: { id: string; label: string; description?: string }[] = [];
  for (const [index, entry] of value.entries()) {
    const option = record(entry);
    const label = text(option.label, text(entry));
    if (label.trim() === "") return null;
    const description = text(option.description)
      ? boundedField(text(option.description), DESCRIPTION_CHARS)
      : undefined;
    options.push({
      id: `option-${index + 1}`,
      label: boundedField(label, LABEL_CHARS),
      ...(description === undefined ? {} : { description }),
    });
  }
  return options;
}
