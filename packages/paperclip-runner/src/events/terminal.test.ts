import { describe, expect, it } from "vitest";
import { processExitFact } from "./process-exit.js";
import { reconcileTerminal, type TerminalFacts } from "./terminal.js";

const succeeded = {
  schema: "paperclip.prp.terminal.v1",
  turnTerminalState: "completed",
  runTerminalState: "succeeded",
  reportedWorkDisposition: "done",
};
const failed = {
  ...succeeded,
  turnTerminalState: "failed",
  runTerminalState: "failed",
  reportedWorkDisposition: "yielded",
};
const result = { reportedWorkDisposition: "done" };

function facts(overrides: Partial<TerminalFacts>): TerminalFacts {
  return {
    intent: "natural",
    processExit: processExitFact(0, null),
    stoppedAfterProposal: false,
    semanticResult: result,
    proposal: null,
    ...overrides,
  };
}

describe("reconcileTerminal", () => {
  it("lets a non-zero exit override a successful proposal", () => {
    const terminal = reconcileTerminal(facts({ processExit: processExitFact(7, null), proposal: succeeded }));
    expect(terminal).toMatchObject({
      turnTerminalState: "failed",
      runTerminalState: "failed",
      reportedWorkDisposition: "yielded",
      harnessTerminalProposal: succeeded,
      reconciliation: {
        authority: "runner",
        reason: "harness_process_failed",
        proposalValid: true,
        proposalContradicted: true,
      },
    });
  });

  it("lets a successful process with a result override a failed proposal", () => {
    const terminal = reconcileTerminal(facts({ proposal: failed }));
    expect(terminal).toMatchObject({
      turnTerminalState: "completed",
      runTerminalState: "succeeded",
      reportedWorkDisposition: "done",
      reconciliation: { reason: "successful_process_and_result", proposalContradicted: true },
    });
  });

  it("fails a clean exit without a result, and keeps a non-done disposition the result or proposal gave", () => {
    expect(reconcileTerminal(facts({ semanticResult: null })).reconciliation.reason).toBe(
      "semantic_result_missing",
    );
    const blocked = reconcileTerminal(
      facts({
        processExit: processExitFact(null, "SIGKILL"),
        semanticResult: { reportedWorkDisposition: "blocked" },
      }),
    );
    expect(blocked.reportedWorkDisposition).toBe("blocked");
    expect(blocked.reconciliation.processExit).toEqual({ exitCode: null, success: false, signal: 9 });
  });

  it("puts the runner's own stop first, whatever the process did", () => {
    const cases = [
      ["interrupted", "interrupted", "cancelled", "turn_interrupted"],
      ["cancelled", "cancelled", "cancelled", "run_cancelled"],
      ["controller_closed", "cancelled", "cancelled", "controller_closed"],
      ["runner_shutdown", "cancelled", "cancelled", "runner_shutdown"],
      ["protocol_violation", "failed", "failed", "harness_protocol_violation"],
      ["start_failed", "failed", "failed", "harness_start_failed"],
    ] as const;
    for (const [intent, turn, run, reason] of cases) {
      expect(reconcileTerminal(facts({ intent, processExit: processExitFact(130, null) }))).toMatchObject({
        turnTerminalState: turn,
        runTerminalState: run,
        reconciliation: { reason },
      });
    }
  });

  it("judges a harness stopped after its proposal by what it said, and marks a malformed proposal invalid", () => {
    const lingered = reconcileTerminal(
      facts({
        processExit: processExitFact(null, "SIGTERM"),
        stoppedAfterProposal: true,
        proposal: { status: "ok" },
      }),
    );
    expect(lingered.reconciliation).toMatchObject({
      reason: "successful_process_and_result",
      proposalValid: false,
      proposalContradicted: false,
    });
    expect(reconcileTerminal(facts({ intent: "start_failed", cause: "ENOENT" })).reconciliation.detail).toBe(
      "the harness did not start: ENOENT",
    );
  });
});
