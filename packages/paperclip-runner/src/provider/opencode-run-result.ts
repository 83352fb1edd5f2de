import { createHash } from "node:crypto";
import { runResultProblem, type WorkDisposition } from "../events/run-result.js";
import type { CompletionContract } from "./codex-provider-state.js";

/** The notification the server's OpenCode proxy proposes the run's result by (its driver's `run.result.proposed`). */
export const OPENCODE_RUN_RESULT = "paperclip/runResult";

export type OpencodeRunResultOutcome =
  /** A result to commit (`run.result.proposed`), its disposition, summary and digest kept for the turn's end. */
  | {
      readonly kind: "propose";
      readonly result: Record<string, unknown>;
      readonly disposition: WorkDisposition;
      readonly summary: string;
      readonly digest: string;
    }
  /** The very result proposed already this turn: nothing more. */
  | { readonly kind: "duplicate" }
  /** Another turn's: an identity failure, as any turn-scoped notification naming it. */
  /** Names another thread or turn: an identity failure (upstream's code for it). */
  | { readonly kind: "foreign"; readonly code: "thread_binding_mismatch" | "turn_binding_mismatch" }
  | { readonly kind: "invalid"; readonly reason: string };

export interface RunResultContext {
  readonly threadId: string | null;
  readonly activeTurnId: string | null;
  readonly contract: CompletionContract | null;
  /** The digest of the result proposed this turn, or null. */
  readonly proposedDigest: string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Pure: a result's identity (its JSON with keys sorted), so an identical repeat is recognised. */
export function resultDigest(value: unknown): string {
  const canonical = (item: unknown): string => {
    if (Array.isArray(item)) return `[${item.map(canonical).join(",")}]`;
    if (isRecord(item))
      return `{${Object.keys(item)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${canonical(item[key])}`)
        .join(",")}}`;
    return JSON.stringify(item);
  };
  return `sha256:${createHash("sha256").update(canonical(value)).digest("hex")}`;
}

const invalid = (reason: string): OpencodeRunResultOutcome => ({ kind: "invalid", reason });

/**
 * Pure: what the proxy's `paperclip/runResult {threadId, turnId, itemId, result}` is to the
 * runner, checked as upstream's runner checks it (its binary's strings and runs): the active
 * turn's, carrying a `paperclip.run_result.v1` that passes the result schema and claims exactly
 * the bound contract's revision and criteria (each once); the first such result of a turn is
 * proposed, an identical repeat is nothing, a different one is a conflict.
 */
export function opencodeRunResult(
  params: Record<string, unknown>,
  context: RunResultContext,
): OpencodeRunResultOutcome {
  if (params.threadId !== undefined && params.threadId !== context.threadId)
    return { kind: "foreign", code: "thread_binding_mismatch" };
  if (context.activeTurnId === null)
    return invalid("OpenCode emitted paperclip/runResult without an active provider turn");
  if (params.turnId !== context.activeTurnId)
    return typeof params.turnId === "string"
      ? { kind: "foreign", code: "turn_binding_mismatch" }
      : invalid("OpenCode paperclip/runResult is not bound to the active provider turn");
  const result = params.result;
  if (!isRecord(result)) return invalid("OpenCode paperclip/runResult omitted its result");
  const contract = context.contract;
  if (contract === null) return invalid("OpenCode paperclip/runResult has no bound completion contract");
  const problem = contractProblem(result, contract);
  if (problem !== null) return invalid(problem);
  const digest = resultDigest(result);
  if (context.proposedDigest !== null)
    return digest === context.proposedDigest
      ? { kind: "duplicate" }
      : invalid("OpenCode emitted conflicting paperclip/runResult notifications for one turn");
  return {
    kind: "propose",
    result,
    disposition: result.reportedWorkDisposition as WorkDisposition,
    summary: result.summary as string,
    digest,
  };
}

/** Why the result does not answer the bound contract, or null. */
function contractProblem(result: Record<string, unknown>, contract: CompletionContract): string | null {
  if (!isRecord(result.completionClaim)) return "OpenCode paperclip/runResult omitted its completion claim";
  if (runResultProblem(result) !== null) return "provider semantic result failed the Paperclip result schema";
  const claim = result.completionClaim;
  if (claim.contractRevision !== contract.revision)
    return "OpenCode paperclip/runResult changed its completion contract revision";
  const criteria = claim.criteria as readonly Record<string, unknown>[];
  const claimed = new Set<unknown>();
  for (const criterion of criteria) {
    if (claimed.has(criterion.criterionId))
      return "OpenCode paperclip/runResult repeated a completion criterion";
    claimed.add(criterion.criterionId);
  }
  const bound = new Set(contract.criterionIds);
  if (claimed.size !== bound.size || [...claimed].some((id) => !bound.has(id as string)))
    return "OpenCode paperclip/runResult changed its bound completion criteria";
  return null;
}
