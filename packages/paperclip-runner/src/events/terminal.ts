import type { ProcessExitFact } from "./process-exit.js";
import { WORK_DISPOSITIONS, type WorkDisposition } from "./run-result.js";

export const TERMINAL_SCHEMA = "paperclip.prp.terminal.v1";

/** Why the runner, not the harness, ended the run the way it did (`reconciliation.reason`). */
export type TerminalReason =
  | "successful_process_and_result"
  | "semantic_result_missing"
  | "harness_process_failed"
  | "harness_start_failed"
  | "harness_protocol_violation"
  | "turn_interrupted"
  | "run_cancelled"
  | "controller_closed"
  | "runner_shutdown";

/**
 * What the runner intended when the harness ended: nothing (`natural`: the
 * harness finished by itself), or the stop it chose. Upstream's intents, plus
 * `start_failed` and `runner_shutdown`, which upstream reports as errors instead.
 */
export type TerminalIntent =
  | "natural"
  | "interrupted"
  | "cancelled"
  | "controller_closed"
  | "protocol_violation"
  | "start_failed"
  | "runner_shutdown";

export type TurnTerminalState = "completed" | "failed" | "interrupted" | "cancelled";
export type RunTerminalState = "succeeded" | "failed" | "cancelled";

/** The `run.terminal` payload: upstream's terminal state plus the runner's reconciliation of it. */
export interface TerminalPayload {
  readonly schema: typeof TERMINAL_SCHEMA;
  readonly turnTerminalState: TurnTerminalState;
  readonly runTerminalState: RunTerminalState;
  readonly reportedWorkDisposition: WorkDisposition;
  /** The harness's own (first) terminal proposal, verbatim, or null. */
  readonly harnessTerminalProposal: unknown;
  readonly reconciliation: {
    readonly authority: "runner";
    readonly reason: TerminalReason;
    readonly proposalValid: boolean;
    readonly proposalContradicted: boolean;
    readonly processExit: ProcessExitFact;
    readonly semanticResultObserved: boolean;
    /** Beyond upstream: one sentence saying why, redacted by the caller. */
    readonly detail: string;
  };
}

export interface TerminalFacts {
  readonly intent: TerminalIntent;
  readonly processExit: ProcessExitFact;
  /**
   * The harness said it was done (a terminal proposal) and was stopped only
   * because it then lingered: its exit status is not held against it.
   */
  readonly stoppedAfterProposal: boolean;
  /** The first semantic result the runner proposed, or null. */
  readonly semanticResult: unknown;
  /** The first terminal proposal the harness made, or null. */
  readonly proposal: unknown;
  /** Context for `reconciliation.detail` (for example the protocol violation or the spawn error). */
  readonly cause?: string;
}

const STATES: Record<
  Exclude<TerminalIntent, "natural">,
  readonly [TurnTerminalState, RunTerminalState, TerminalReason]
> = {
  interrupted: ["interrupted", "cancelled", "turn_interrupted"],
  cancelled: ["cancelled", "cancelled", "run_cancelled"],
  controller_closed: ["cancelled", "cancelled", "controller_closed"],
  runner_shutdown: ["cancelled", "cancelled", "runner_shutdown"],
  protocol_violation: ["failed", "failed", "harness_protocol_violation"],
  start_failed: ["failed", "failed", "harness_start_failed"],
};

const DETAILS: Record<TerminalReason, string> = {
  successful_process_and_result: "the harness exited successfully after proposing a result",
  semantic_result_missing: "the harness exited successfully without proposing a result",
  harness_process_failed: "the harness process failed",
  harness_start_failed: "the harness did not start",
  harness_protocol_violation: "the harness broke the harness protocol",
  turn_interrupted: "the controller interrupted the turn",
  run_cancelled: "the controller cancelled the run",
  controller_closed: "the controller closed its command stream",
  runner_shutdown: "the runner was asked to shut down",
};

/**
 * Pure: the run's one terminal. The runner decides it from what it chose and
 * what it saw (the process exit, the first result); the harness's proposal is
 * recorded and compared, never obeyed, as upstream's reference runner does.
 */
export function reconcileTerminal(facts: TerminalFacts): TerminalPayload {
  const [turnTerminalState, runTerminalState, reason] = decideStates(facts);
  const proposalValid = isValidProposal(facts.proposal);
  const proposal = proposalValid ? (facts.proposal as Record<string, unknown>) : null;
  const proposalContradicted =
    proposal !== null &&
    (proposal.turnTerminalState !== turnTerminalState || proposal.runTerminalState !== runTerminalState);
  const fromResult = dispositionOf(facts.semanticResult);
  const fromProposal = dispositionOf(facts.proposal);
  const reportedWorkDisposition: WorkDisposition =
    runTerminalState === "succeeded"
      ? (fromResult ?? fromProposal ?? "done")
      : (notDone(fromResult) ?? notDone(fromProposal) ?? "yielded");
  const detail =
    facts.cause === undefined || facts.cause === "" ? DETAILS[reason] : `${DETAILS[reason]}: ${facts.cause}`;
  return {
    schema: TERMINAL_SCHEMA,
    turnTerminalState,
    runTerminalState,
    reportedWorkDisposition,
    harnessTerminalProposal: facts.proposal ?? null,
    reconciliation: {
      authority: "runner",
      reason,
      proposalValid,
      proposalContradicted,
      processExit: facts.processExit,
      semanticResultObserved: facts.semanticResult !== null && facts.semanticResult !== undefined,
      detail,
    },
  };
}

function decideStates(facts: TerminalFacts): readonly [TurnTerminalState, RunTerminalState, TerminalReason] {
  if (facts.intent !== "natural") return STATES[facts.intent];
  const exitedWell = facts.processExit.success || facts.stoppedAfterProposal;
  const hasResult = facts.semanticResult !== null && facts.semanticResult !== undefined;
  if (exitedWell && hasResult) return ["completed", "succeeded", "successful_process_and_result"];
  if (!exitedWell) return ["failed", "failed", "harness_process_failed"];
  return ["failed", "failed", "semantic_result_missing"];
}

/** Whether a harness's terminal proposal has the shape of upstream's terminal state. */
export function isValidProposal(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    record.schema === TERMINAL_SCHEMA &&
    ["completed", "failed", "interrupted", "cancelled"].includes(record.turnTerminalState as string) &&
    ["succeeded", "failed", "cancelled"].includes(record.runTerminalState as string) &&
    dispositionOf(record) !== null
  );
}

function dispositionOf(value: unknown): WorkDisposition | null {
  if (value === null || typeof value !== "object") return null;
  const disposition = (value as Record<string, unknown>).reportedWorkDisposition;
  return (WORK_DISPOSITIONS as readonly unknown[]).includes(disposition)
    ? (disposition as WorkDisposition)
    : null;
}

function notDone(disposition: WorkDisposition | null): WorkDisposition | null {
  return disposition === "done" ? null : disposition;
}
