import { boundedText } from "./bounded-text.js";
import { ownEntry, type ProviderEvent, providerEvent } from "./provider-event.js";

const PLAN_STATUS: Readonly<Record<string, string>> = {
  pending: "pending",
  inProgress: "in_progress",
  in_progress: "in_progress",
  completed: "completed",
};

/** Pure: the `plan.updated` event of Codex's `turn/plan/updated`. */
export function planEvent(params: Record<string, unknown>, turnId: string | null): ProviderEvent {
  // A step that is not an object (null included) reads as an empty one, as upstream's lookups do.
  const plan = Array.isArray(params.plan) ? (params.plan as (Record<string, unknown> | null)[]) : [];
  const steps = plan.slice(0, 256).map((step, index) => ({
    stepId: `step-${index + 1}`,
    body: boundedText(step?.step),
    status: ownEntry(PLAN_STATUS, step?.status) ?? "pending",
  }));
  return providerEvent("plan.updated", 1, {
    schema: "paperclip.plan.updated.v1",
    planId: safeId(`plan-${turnId ?? "turn"}`),
    revision: 1,
    explanation: typeof params.explanation === "string" ? boundedText(params.explanation) : null,
    steps,
    complete: steps.length > 0 && steps.every((step) => step.status === "completed"),
    syncStatus: "not_applicable",
    documentRevision: null,
  });
}

/** Pure: the `provider.notice.recorded` event of a Codex error, warning or notice. */
export function noticeEvent(method: string, params: Record<string, unknown>, inTurn: boolean): ProviderEvent {
  const error = method === "error";
  const message =
    (params.error as { message?: unknown } | undefined)?.message ?? params.message ?? params.summary;
  const summary = boundedText(message) || method;
  return providerEvent("provider.notice.recorded", 0, {
    schema: "paperclip.provider.notice.v1",
    noticeId: `codex-${method.replace(/[^A-Za-z0-9]+/g, "-").toLowerCase()}`,
    severity: error ? "error" : method === "deprecationNotice" ? "info" : "warning",
    category: method,
    scope: inTurn ? "turn" : "session",
    // An error is never recoverable in upstream's notice, even one Codex retries (`willRetry`).
    recoverable: !error,
    // As the shipped normaliser (`provider-events.js`): errors and warnings ask the user to act.
    userActionable: error || method === "warning",
    summary,
  });
}

function safeId(value: string): string {
  const cleaned = value.replace(/[^A-Za-z0-9._:-]/g, "-").slice(0, 160);
  return /^[A-Za-z0-9]/.test(cleaned) ? cleaned : `p${cleaned.slice(0, 159)}`;
}
