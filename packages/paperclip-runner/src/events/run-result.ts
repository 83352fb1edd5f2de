/** The structured semantic result a harness proposes (`paperclip.run_result.v1`). */
export const RUN_RESULT_SCHEMA = "paperclip.run_result.v1";

export const WORK_DISPOSITIONS = ["done", "blocked", "needs_review", "yielded"] as const;
export type WorkDisposition = (typeof WORK_DISPOSITIONS)[number];

const CRITERION_STATUSES = ["satisfied", "not_satisfied", "unknown"];
const VERIFICATION_STATUSES = ["passed", "failed", "not_run"];
const CONTINUATION_KINDS = ["same_agent", "retry", "delegated_issue", "response_wake", "monitor"];
const BLOCKER_OWNER_KINDS = ["agent", "user", "system", "external"];
const BLOCKER_SCOPES = ["current_track", "task_wide"];
const SUMMARY_MAX_LENGTH = 12_000;

/**
 * Pure: why `value` is not a structured run result upstream's schema accepts, or
 * null when it is. The runner proposes only results that pass, so every
 * `run.result.proposed` it writes is valid; the reason names the first problem.
 */
export function runResultProblem(value: unknown): string | null {
  if (!isRecord(value)) return "the result must be a JSON object";
  return (
    headerProblem(value) ??
    completionClaimProblem(value.completionClaim) ??
    listsProblem(value) ??
    blockerProblem(value) ??
    continuationProblem(value)
  );
}

/** The schema, the reported disposition and the summary. */
function headerProblem(value: Record<string, unknown>): string | null {
  if (value.schema !== RUN_RESULT_SCHEMA) return `result.schema must be ${RUN_RESULT_SCHEMA}`;
  if (!isOneOf(value.reportedWorkDisposition, WORK_DISPOSITIONS))
    return `result.reportedWorkDisposition must be one of ${WORK_DISPOSITIONS.join(", ")}`;
  if (!isText(value.summary) || value.summary.length > SUMMARY_MAX_LENGTH)
    return `result.summary must be a string of 1 to ${SUMMARY_MAX_LENGTH} characters`;
  return null;
}

function completionClaimProblem(claim: unknown): string | null {
  if (!isRecord(claim)) return "result.completionClaim must be an object";
  if (!isText(claim.contractRevision))
    return "result.completionClaim.contractRevision must be a non-empty string";
  if (typeof claim.objectiveSatisfied !== "boolean")
    return "result.completionClaim.objectiveSatisfied must be a boolean";
  return (
    arrayProblem(
      claim.criteria,
      "result.completionClaim.criteria",
      (item) =>
        isText(item.criterionId) &&
        isOneOf(item.status, CRITERION_STATUSES) &&
        Array.isArray(item.evidenceRefs) &&
        item.evidenceRefs.every((ref) => typeof ref === "string") &&
        (item.explanation === undefined || typeof item.explanation === "string"),
    ) ??
    arrayProblem(
      claim.remainingWork,
      "result.completionClaim.remainingWork",
      (item) => isText(item.description) && typeof item.blocksCompletion === "boolean",
    )
  );
}

/** Evidence, verification, attention requests and artifacts, in that order. */
function listsProblem(value: Record<string, unknown>): string | null {
  return (
    arrayProblem(value.evidence, "result.evidence", () => true) ??
    arrayProblem(
      value.verification,
      "result.verification",
      (item) => isText(item.commandOrCheck) && isOneOf(item.status, VERIFICATION_STATUSES),
    ) ??
    arrayProblem(value.attentionRequests, "result.attentionRequests", (item) =>
      ["kind", "summary", "targetAgentId"].every((key) => item[key] === undefined || isText(item[key])),
    ) ??
    arrayProblem(value.artifacts, "result.artifacts", (item) => isText(item.kind) && isText(item.ref))
  );
}

/** A blocker is checked when given, and required when the disposition is `blocked`. */
function blockerProblem(value: Record<string, unknown>): string | null {
  if (value.blocker === undefined && value.reportedWorkDisposition !== "blocked") return null;
  const blocker = value.blocker;
  if (
    !isRecord(blocker) ||
    !isText(blocker.reasonCode) ||
    !isRecord(blocker.owner) ||
    !isOneOf(blocker.owner.kind, BLOCKER_OWNER_KINDS) ||
    !isText(blocker.owner.name) ||
    !isText(blocker.unblockAction) ||
    !isOneOf(blocker.scope, BLOCKER_SCOPES)
  ) {
    return "result.blocker must be { reasonCode, owner: { kind, name }, unblockAction, scope } (required when blocked)";
  }
  return null;
}

/** A continuation is checked when given, and required when the disposition is `yielded`. */
function continuationProblem(value: Record<string, unknown>): string | null {
  if (value.continuation === undefined && value.reportedWorkDisposition !== "yielded") return null;
  const continuation = value.continuation;
  if (
    !isRecord(continuation) ||
    !isOneOf(continuation.kind, CONTINUATION_KINDS) ||
    !isText(continuation.summary) ||
    !isText(continuation.idempotencyKey)
  ) {
    return "result.continuation must be { kind, summary, idempotencyKey } (required when yielded)";
  }
  return null;
}

function arrayProblem(
  value: unknown,
  where: string,
  itemOk: (item: Record<string, unknown>) => boolean,
): string | null {
  if (!Array.isArray(value)) return `${where} must be an array`;
  for (const [index, item] of value.entries()) {
    if (!isRecord(item) || !itemOk(item)) return `${where}[${index}] is malformed`;
  }
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isText(value: unknown): value is string {
  return typeof value === "string" && value.length > 0;
}

function isOneOf<T extends string>(value: unknown, allowed: readonly T[]): value is T {
  return typeof value === "string" && (allowed as readonly string[]).includes(value);
}
