import type { TerminalReason } from "../protocol/terminal-reason.js";
import type { StopCause } from "./run-facts.js";

/** How the harness ended, as the supervisor saw it. */
export type HarnessOutcome =
  | { readonly kind: "not_started" }
  | { readonly kind: "spawn_failed"; readonly message: string }
  | {
      readonly kind: "exited";
      readonly exitCode: number | null;
      readonly signal: string | null;
      readonly readyReceived: boolean;
    };

export interface TerminalFacts {
  readonly stopCause: StopCause | null;
  readonly harness: HarnessOutcome;
  readonly resultSeen: boolean;
  readonly harnessTerminal: { readonly status: string } | null;
}

export interface TerminalDecision {
  readonly reason: TerminalReason;
  readonly detail: string;
}

/**
 * Pure: the one terminal reason of a run. A stop the runner chose outranks how the
 * process then exited (a cancelled harness dying of SIGTERM is a cancel, not a
 * crash); the harness's own `terminal` message is a claim, weighed only after the
 * process's exit status and the presence of a result.
 */
export function decideTerminal(facts: TerminalFacts): TerminalDecision {
  switch (facts.stopCause) {
    case "harness_protocol_violation":
      return { reason: "harness_protocol_violation", detail: "the harness broke the harness protocol" };
    case "run_cancelled":
      return { reason: "run_cancelled", detail: "the controller cancelled the run" };
    case "turn_interrupted":
      return { reason: "turn_interrupted", detail: "the controller interrupted the turn" };
    case "controller_closed":
      return { reason: "controller_closed", detail: "the controller closed its command stream" };
    case "runner_shutdown":
      return { reason: "runner_shutdown", detail: "the runner was asked to shut down" };
    case "harness_ready_timeout":
      return { reason: "harness_start_failed", detail: "the harness did not say ready in time" };
    case "harness_lingered":
    case null:
      break;
  }
  const harness = facts.harness;
  if (harness.kind === "not_started")
    return { reason: "harness_start_failed", detail: "no harness was started" };
  if (harness.kind === "spawn_failed") return { reason: "harness_start_failed", detail: harness.message };
  const status = harness.signal !== null ? `signal ${harness.signal}` : `exit code ${harness.exitCode}`;
  if (!harness.readyReceived) {
    return { reason: "harness_start_failed", detail: `the harness ended (${status}) before it said ready` };
  }
  // A harness that said `terminal` and then had to be stopped is judged by what it said, not by the stop.
  const stoppedAfterTerminal = facts.stopCause === "harness_lingered";
  if (!stoppedAfterTerminal && (harness.signal !== null || harness.exitCode !== 0)) {
    return { reason: "harness_process_failed", detail: `the harness process failed (${status})` };
  }
  if (facts.harnessTerminal !== null && facts.harnessTerminal.status !== "succeeded") {
    return {
      reason: "harness_reported_failure",
      detail: `the harness reported ${facts.harnessTerminal.status}`,
    };
  }
  if (facts.resultSeen)
    return { reason: "successful_process_and_result", detail: "the harness exited 0 after a result" };
  return { reason: "semantic_result_missing", detail: "the harness exited 0 without a result" };
}
