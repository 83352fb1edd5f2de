import { describe, expect, it } from "vitest";
import { runResultProblem } from "../events/run-result.js";
import { codexTerminalEvents } from "./codex-terminal-events.js";

const contract = { revision: "rev-1", criterionIds: ["c1"] };

describe("the run's terminal suffix after a provider turn", () => {
  it("proposes the result upstream's runner synthesizes, then run.terminal with its disposition", () => {
    const [result, terminal] = codexTerminalEvents("codex", "completed", contract, null, "all done");
    expect(result?.eventType).toBe("run.result.proposed");
    expect(runResultProblem(result?.payload)).toBeNull();
    expect(result?.payload).toMatchObject({ reportedWorkDisposition: "done", summary: "all done" });
    expect(terminal).toEqual({
      eventType: "run.terminal",
      priority: 0,
      payload: {
        schema: "paperclip.prp.terminal.v1",
        provider: "codex",
        turnTerminalState: "completed",
        runTerminalState: "succeeded",
        reportedWorkDisposition: "done",
      },
    });
    const [, stopped] = codexTerminalEvents("codex", "interrupted", contract, null, "half");
    expect(stopped?.payload.reportedWorkDisposition).toBe("needs_review");
  });

  it("follows paperclip_finish / paperclip_block, and maps failed and interrupted turns", () => {
    const done = codexTerminalEvents(
      "codex",
      "completed",
      contract,
      { disposition: "done", summary: "shipped" },
      null,
    );
    expect(done[0]?.payload).toMatchObject({ reportedWorkDisposition: "done", summary: "shipped" });
    const blocked = codexTerminalEvents(
      "codex",
      "completed",
      contract,
      { disposition: "blocked", summary: "need keys" },
      null,
    );
    expect(runResultProblem(blocked[0]?.payload)).toBeNull();
    expect(codexTerminalEvents("codex", "failed", contract, null, null)[1]?.payload.runTerminalState).toBe(
      "failed",
    );
    expect(
      codexTerminalEvents("codex", "interrupted", contract, null, null)[1]?.payload.runTerminalState,
    ).toBe("cancelled");
  });

  it("adds no result when OpenCode proposed its own: run.terminal alone, with its disposition", () => {
    const proposed = { disposition: "blocked" as const, summary: "stuck", proposedDigest: "sha256:x" };
    expect(codexTerminalEvents("opencode", "completed", contract, proposed, "prose")).toEqual([
      {
        eventType: "run.terminal",
        priority: 0,
        payload: {
          schema: "paperclip.prp.terminal.v1",
          provider: "opencode",
          turnTerminalState: "completed",
          runTerminalState: "succeeded",
          reportedWorkDisposition: "blocked",
        },
      },
    ]);
  });
});
