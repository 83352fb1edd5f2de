import { RUN_RESULT_SCHEMA } from "../events/run-result.js";
import { TERMINAL_SCHEMA } from "../events/terminal.js";
import type { ProviderEvent, TurnTerminalStatus } from "./codex-notification-events.js";
import type { CompletionContract, TerminalAuthority } from "./codex-provider-state.js";
import { synthesizedRunResult } from "./synthesized-run-result.js";

const RUN_STATE: Readonly<Record<TurnTerminalStatus, "succeeded" | "failed" | "cancelled">> = {
  completed: "succeeded",
  failed: "failed",
  interrupted: "cancelled",
  cancelled: "cancelled",
};

/**
 * Pure: the run's terminal suffix after a provider turn ends, emitted only when
 * `run.prepare` bound a completion contract (upstream's `terminal_events`): the
 * result a `paperclip_finish`/`paperclip_block` call decided, or else the one
 * upstream's runner synthesizes (`synthesizedRunResult`), then `run.terminal`
 * with the result's disposition. A result OpenCode proposed itself
 * (`paperclip/runResult`) is committed already: `run.terminal` alone.
 */
export function codexTerminalEvents(
  provider: string,
  status: TurnTerminalStatus,
  contract: CompletionContract,
  authority: TerminalAuthority | null,
  lastAgentMessage: string | null,
): ProviderEvent[] {
  const terminal = (disposition: unknown): ProviderEvent => ({
    eventType: "run.terminal",
    priority: 0,
    payload: {
      schema: TERMINAL_SCHEMA,
      provider,
      turnTerminalState: status,
      runTerminalState: RUN_STATE[status],
      reportedWorkDisposition: disposition,
    },
  });
  if (authority?.proposedDigest !== undefined) return [terminal(authority.disposition)];
  const result =
    authority === null
      ? synthesizedRunResult(provider, status, contract, lastAgentMessage)
      : decidedRunResult(provider, contract, authority, lastAgentMessage, status);
  return [
    { eventType: "run.result.proposed", priority: 0, payload: result },
    terminal(result.reportedWorkDisposition),
  ];
}

/** The result a `paperclip_finish` / `paperclip_block` call decided. */
function decidedRunResult(
  provider: string,
  contract: CompletionContract,
  authority: TerminalAuthority,
  lastAgentMessage: string | null,
  status: TurnTerminalStatus,
): Record<string, unknown> {
  const disposition = authority.disposition;
  const summary = (authority.summary || lastAgentMessage || `provider turn ${status}`).slice(0, 12_000);
  return {
    schema: RUN_RESULT_SCHEMA,
    reportedWorkDisposition: disposition,
    summary,
    completionClaim: {
      contractRevision: contract.revision,
      objectiveSatisfied: disposition === "done",
      criteria: contract.criterionIds.map((criterionId) => ({
        criterionId,
        status: disposition === "done" ? "satisfied" : "unknown",
        evidenceRefs: [],
      })),
      remainingWork: [],
    },
    evidence: [],
    verification: [],
    attentionRequests: [],
    artifacts: [],
    ...(disposition === "blocked"
      ? {
          blocker: {
            reasonCode: "agent_blocked",
            owner: { kind: "agent", name: provider },
            unblockAction: summary.slice(0, 1000),
            scope: "current_track",
          },
        }
      : {}),
  };
}
