import { RUN_RESULT_SCHEMA } from "../events/run-result.js";
import type { CompletionContract } from "./codex-provider-state.js";
import type { TurnTerminalStatus } from "./provider-event.js";

/** The provider's name in upstream's synthesized texts. */
const DISPLAY_NAMES: Readonly<Record<string, string>> = { codex: "Codex", opencode: "OpenCode" };

/**
 * Pure: the result upstream's runner proposes at a turn's end when nothing decided one (no
 * `paperclip_finish`/`paperclip_block`, no `paperclip/runResult`), as its binary commits it
 * (observed with the fake app-server and the scripted OpenCode proxy,
 * `test/opencode-bridge-upstream.test.ts`): a completed turn is `done`, every criterion
 * satisfied by the agent's message (`provider:<provider>:agent-message`), summarized by its
 * last message or `<Name> completed the requested work.`; a failed, cancelled or interrupted
 * one is `needs_review`, its criteria unknown, with a review asked of a human.
 */
export function synthesizedRunResult(
  provider: string,
  status: TurnTerminalStatus,
  contract: CompletionContract,
  lastAgentMessage: string | null,
): Record<string, unknown> {
  const name = DISPLAY_NAMES[provider] ?? provider;
  const common = { schema: RUN_RESULT_SCHEMA, verification: [], artifacts: [] };
  if (status === "completed") {
    const ref = `provider:${provider}:agent-message`;
    return {
      ...common,
      reportedWorkDisposition: "done",
      summary: (lastAgentMessage || `${name} completed the requested work.`).slice(0, 12_000),
      completionClaim: {
        contractRevision: contract.revision,
        objectiveSatisfied: true,
        criteria: contract.criterionIds.map((criterionId) => ({
          criterionId,
          status: "satisfied",
          evidenceRefs: [ref],
        })),
        remainingWork: [],
      },
      evidence: [{ ref }],
      attentionRequests: [],
    };
  }
  return {
    ...common,
    reportedWorkDisposition: "needs_review",
    summary: `The ${name} run ${status === "failed" ? "failed" : "stopped"} before it completed.`,
    completionClaim: {
      contractRevision: contract.revision,
      objectiveSatisfied: false,
      criteria: contract.criterionIds.map((criterionId) => ({
        criterionId,
        status: "unknown",
        evidenceRefs: [],
      })),
      remainingWork: [
        { blocksCompletion: true, description: `Review the stopped ${name} run and continue the task.` },
      ],
    },
    evidence: [],
    attentionRequests: [
      { kind: "review", ownerClass: "human", summary: `Review the stopped ${name} run before continuing.` },
    ],
  };
}
