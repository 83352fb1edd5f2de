import type { QuestionSet } from "./codex-question-set.js";
import { boundsInverted, patternCompiles, type TextValidation } from "./opencode-text-validation.js";
import { opencodePendingBytes } from "./pending-input-bytes.js";
import { questionSetMatchesSchema } from "./question-set-schema.js";

/** The provider request method the server's OpenCode proxy asks its questions by. */
export const OPENCODE_RUNTIME_REQUEST = "paperclip/runtimeRequest";

/** A question the proxy's OpenCode driver forwarded, as the runner keeps it until it is answered. */
export interface OpencodeRuntimeRequest {
  readonly requestId: string;
  readonly turnId: string;
  readonly questionSet: QuestionSet;
  /** What it counts against upstream's bound on the open questions' size (`opencodePendingBytes`). */
  readonly bytes: number;
}

export type OpencodeRuntimeRequestOutcome =
  | { readonly ok: true; readonly request: OpencodeRuntimeRequest }
  | { readonly ok: false; readonly reason: string };

/** The fields of the `paperclip.runtime_request.v2` the proxy forwards (its driver's `runtime_request.created`). */
const REQUEST_FIELDS: ReadonlySet<string> = new Set([
  "schema",
  "requestKind",
  "requestId",
  "type",
  "status",
  "prompt",
  "input",
  "origin",
  "turnId",
  "itemId",
]);
const QUESTION_FIELDS: ReadonlySet<string> = new Set([
  "id",
  "header",
  "prompt",
  "helpText",
  "required",
  "answerMode",
  "options",
  "customAnswer",
  "textValidation",
]);
const ANSWER_MODES: ReadonlySet<unknown> = new Set(["single_select", "multi_select", "text"]);
/** Upstream's bound on an id it keeps (a request's, a turn's, a question's). */
const MAX_ID_CHARS = 160;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isId = (value: unknown): value is string =>
  typeof value === "string" && value.trim() !== "" && value.length <= MAX_ID_CHARS;

const fail = (reason: string): OpencodeRuntimeRequestOutcome => ({ ok: false, reason });

/**
 * Pure: the proxy's `paperclip/runtimeRequest {request}` as the runner takes it, or why not,
 * in upstream's words (its binary's strings; a request it refuses makes upstream's runner exit
 * 1): params holding `request` alone; the request a pending `runtime` v2 request of type
 * `input` with no field beyond the driver's; ids, prompt and origin well formed; its input a
 * `paperclip.question_set.v1` (upstream's schema first), then, question by question, unique
 * question ids, bounds not inverted, a pattern that compiles, unique option ids.
 */
export function opencodeRuntimeRequest(params: Record<string, unknown>): OpencodeRuntimeRequestOutcome {
  if (Object.keys(params).some((key) => key !== "request"))
    return fail("OpenCode runtime request params contain an unknown field");
  const request = params.request;
  if (!isRecord(request)) return fail("OpenCode runtime request is required");
  if (Object.keys(request).some((key) => !REQUEST_FIELDS.has(key)))
    return fail("OpenCode runtime request contains an unknown field");
  if (
    request.schema !== "paperclip.runtime_request.v2" ||
    request.requestKind !== "runtime" ||
    request.status !== "pending"
  )
    return fail("OpenCode runtime request discriminator is invalid");
  if (request.type !== "input")
    return fail("OpenCode runnerd bridge currently supports structured input requests only");
  if (!isId(request.requestId)) return fail("OpenCode runtime requestId is invalid");
  if (!isId(request.turnId)) return fail("OpenCode runtime request turnId is invalid");
  if (request.prompt !== undefined && typeof request.prompt !== "string")
    return fail("OpenCode runtime request prompt is invalid");
  if (request.itemId !== undefined && !isId(request.itemId))
    return fail("OpenCode runtime request itemId is invalid");
  if (request.origin !== undefined && !isRecord(request.origin))
    return fail("OpenCode runtime request origin is invalid");
  if (request.input === undefined) return fail("OpenCode runtime request input is required");
  if (!questionSetMatchesSchema(request.input))
    return fail("OpenCode runtime request input failed the Paperclip question-set schema");
  const problem = questionSetProblem(request.input);
  if (problem !== null) return fail(problem);
  return {
    ok: true,
    request: {
      requestId: request.requestId,
      turnId: request.turnId,
      questionSet: request.input as unknown as QuestionSet,
      bytes: opencodePendingBytes(request),
    },
  };
}

/** Why `input` is not a question set the runner can check answers against, or null. */
function questionSetProblem(input: unknown): string | null {
  if (
    !isRecord(input) ||
    input.schema !== "paperclip.question_set.v1" ||
    typeof input.title !== "string" ||
    !Array.isArray(input.questions) ||
    input.questions.length === 0
  )
    return "OpenCode question set is malformed";
  const ids = new Set<string>();
  for (const question of input.questions) {
    if (!isRecord(question) || Object.keys(question).some((key) => !QUESTION_FIELDS.has(key)))
      return "OpenCode question set is malformed";
    if (!isId(question.id)) return "OpenCode question id is malformed";
    if (ids.has(question.id)) return "OpenCode question ids must be unique";
    ids.add(question.id);
    if (
      typeof question.prompt !== "string" ||
      typeof question.required !== "boolean" ||
      !ANSWER_MODES.has(question.answerMode)
    )
      return "OpenCode question set is malformed";
    const problem = optionsProblem(question);
    if (problem !== null) return problem;
  }
  return null;
}

/** A select question names its options (unique ids, a label each); a text question none, its bounds in order and its pattern compiles. */
function optionsProblem(question: Record<string, unknown>): string | null {
  const options = question.options;
  if (question.answerMode === "text") {
    if (options !== undefined) return "OpenCode question set is malformed";
    const validation = question.textValidation;
    if (validation === undefined) return null;
    if (!isRecord(validation)) return "OpenCode question set is malformed";
    if (boundsInverted(validation as TextValidation)) return "OpenCode question constraints are inverted";
    if (validation.pattern === undefined) return null;
    if (typeof validation.pattern !== "string") return "OpenCode question set is malformed";
    return patternCompiles(validation.pattern) ? null : "OpenCode question pattern cannot compile";
  }
  if (!Array.isArray(options) || options.length === 0) return "OpenCode question set is malformed";
  const ids = new Set<string>();
  for (const option of options) {
    if (!isRecord(option) || typeof option.label !== "string") return "OpenCode question set is malformed";
    if (!isId(option.id)) return "OpenCode option id is malformed";
    if (ids.has(option.id)) return "OpenCode question option ids must be unique";
    ids.add(option.id);
  }
  return null;
}
