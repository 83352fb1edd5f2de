import { boundedText } from "./bounded-text.js";
import { ownEntry, type ProviderEvent, providerEvent, stableId } from "./provider-event.js";

const PLAN_STATUS: Readonly<Record<string, string>> = {
  pending: "pending",
  inProgress: "in_progress",
  in_progress: "in_progress",
  completed: "completed",
  blocked: "blocked",
  failed: "blocked",
  error: "blocked",
};

/**
 * Pure: the `plan.updated` event of Codex's `turn/plan/updated`, as upstream's runner (and the
 * server's own normaliser) builds it: a step without text is left out (the others keep their
 * place in the numbering), a failed step is `blocked`, the revision Codex gives is kept.
 */
export function planEvent(params: Record<string, unknown>, turnId: string | null): ProviderEvent {
  // A step that is not an object (null included) reads as an empty one, as upstream's lookups do.
  const plan = Array.isArray(params.plan) ? (params.plan as (Record<string, unknown> | null)[]) : [];
  const steps = plan.slice(0, 256).flatMap((step, index) => {
    const body = boundedText(step?.step);
    if (body.trim() === "") return [];
    return [{ stepId: `step-${index + 1}`, body, status: ownEntry(PLAN_STATUS, step?.status) ?? "pending" }];
  });
  const revision = params.revision;
  return providerEvent("plan.updated", 1, {
    schema: "paperclip.plan.updated.v1",
    planId: stableId(turnId, "codex-plan"),
    revision: typeof revision === "number" && Number.isSafeInteger(revision) && revision > 0 ? revision : 1,
    explanation: typeof params.explanation === "string" ? boundedText(params.explanation) : null,
    steps,
    complete: steps.length > 0 && steps.every((step) => step.status === "completed"),
    syncStatus: "not_applicable",
    documentRevision: null,
  });
}

/** The keys upstream reads a notice's text from, the first one not blank. */
const NOTICE_TEXT_KEYS = ["summary", "message", "details"] as const;

/**
 * Pure: the `provider.notice.recorded` event of a Codex error, warning or notice, as upstream's
 * runner records it: a warning unless it is an error, scoped to the environment for a
 * configuration warning and to the turn otherwise (whether a turn runs or not).
 */
export function noticeEvent(method: string, params: Record<string, unknown>): ProviderEvent {
  const error = method === "error";
  // Ours keeps the text of Codex's error object, which upstream replaces with its generic summary.
  const errorMessage = (params.error as { message?: unknown } | undefined)?.message;
  const message = [errorMessage, ...NOTICE_TEXT_KEYS.map((key) => params[key])].find(
    (value) => typeof value === "string" && value.trim() !== "",
  );
  return providerEvent("provider.notice.recorded", 0, {
    schema: "paperclip.provider.notice.v1",
    noticeId: stableId(`codex-${method}`, "codex-notice"),
    severity: error ? "error" : "warning",
    category: method.replaceAll("/", "_"),
    scope: method.includes("config") ? "environment" : "turn",
    // An error is never recoverable in upstream's notice, even one Codex retries (`willRetry`).
    recoverable: !error,
    // As the shipped normaliser (`provider-events.js`): errors and warnings ask the user to act.
    userActionable: error || method === "warning",
    summary: message === undefined ? "Provider notice" : boundedText(message),
  });
}
