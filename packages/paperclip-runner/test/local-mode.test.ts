import { describe, expect, it } from "vitest";
import { logsOf, READY, RESULT, SUCCEEDED, startTurn } from "./helpers/local-steps.js";
import { fakeDaemon, runResult, terminalOf } from "./local-controller.js";

// Real processes on a busy 2-core CI machine: far more than vitest's 5 s default.
describe("local mode: a run from prepare to its one terminal", { timeout: 60_000 }, () => {
  it("runs a session to successful_process_and_result, with receipts, PRP events and a redacted log tail", async () => {
    const controller = fakeDaemon({
      steps: [
        // Only log and diagnostic messages may come before ready.
        { diagnostic: { model: "fake-1", warmup: true } },
        READY,
        { waitFor: "session.open" },
        { waitFor: "turn.start" },
        { event: { eventType: "item.delta", turnId: "turn-1", itemId: "i1", payload: { text: "thinking" } } },
        { log: "using key sk-live-abcdefghijklmnop" },
        { stderr: "warning: OPENAI_API_KEY=sk-proj-0123456789abcdef leaked" },
        RESULT,
        { terminal: SUCCEEDED },
        { exit: 0 },
      ],
    });
    startTurn(controller);
    expect(await terminalOf(controller)).toBe("successful_process_and_result");
    for (const id of ["c1", "c2", "c3"]) {
      expect(controller.receiptFor(id)).toEqual([
        expect.objectContaining({ status: "accepted", detail: "command applied" }),
      ]);
    }
    expect(controller.events().map((event) => event.eventType)).toEqual([
      "runtime.phase.changed",
      "workspace.ready",
      "harness.starting",
      "harness.ready",
      "session.starting",
      "turn.submitted",
      "item.delta",
      "run.result.proposed",
      "harness.exited",
      "run.terminal",
    ]);
    expect(controller.event("turn.submitted")).toMatchObject({
      turnId: "turn-1",
      payload: { text: "hello" },
    });
    expect(controller.event("item.delta")).toMatchObject({ turnId: "turn-1", itemId: "i1", priority: 2 });
    expect(controller.event("run.result.proposed")?.payload).toEqual(runResult());
    expect(controller.event("harness.exited")?.payload).toMatchObject({
      processExit: { exitCode: 0, success: true, signal: null },
      semanticResultObserved: true,
    });
    const logs = logsOf(controller);
    expect(logs.lines).toEqual([
      'diagnostic: {"model":"fake-1","warmup":true}',
      "stdout: using key [REDACTED]",
      "stderr: warning: OPENAI_API_KEY=[REDACTED] leaked",
    ]);
    expect(logs.retainedBytes).toBe(logs.lines.reduce((sum, line) => sum + Buffer.byteLength(line), 0));
    expect(controller.event("run.terminal")?.payload).toMatchObject({
      schema: "paperclip.prp.terminal.v1",
      turnTerminalState: "completed",
      runTerminalState: "succeeded",
      reportedWorkDisposition: "done",
      harnessTerminalProposal: SUCCEEDED,
      reconciliation: { authority: "runner", proposalValid: true, proposalContradicted: false },
    });
  });

  it("raises a harness request as runtime_request.created, forwards the resolution, refuses an unknown request id", async () => {
    const controller = fakeDaemon({
      steps: [
        READY,
        { waitFor: "turn.start" },
        { request: { requestId: "perm-1", kind: "approval", tool: "shell" } },
      ],
      on: {
        "request.resolve": [
          {
            event: {
              eventType: "runtime_request.resolved",
              payload: { resolvedBy: "{{commandId}}", resolution: "{{payload}}" },
            },
          },
          RESULT,
          { exit: 0 },
        ],
      },
    });
    startTurn(controller);
    const request = await controller.waitForEvent("runtime_request.created");
    expect(request.payload).toEqual({ request: { requestId: "perm-1", kind: "approval", tool: "shell" } });
    controller.send("request.resolve", "c4", { requestId: "nope" });
    expect(await controller.waitForReceipt("c4")).toMatchObject({
      status: "rejected",
      detail: "unknown request nope",
    });
    controller.send("request.resolve", "c5", { requestId: "perm-1", decision: "allow" });
    expect(await terminalOf(controller)).toBe("successful_process_and_result");
    expect(controller.receiptFor("c5")[0]).toMatchObject({ status: "accepted" });
    // The harness got the controller's resolution verbatim.
    expect(controller.event("runtime_request.resolved")?.payload).toEqual({
      resolvedBy: "c5",
      resolution: { requestId: "perm-1", decision: "allow" },
    });
  });

  // That the receipt is out while the harness still runs is shown in local-runner-timings.test.ts.
  it("accepts turn.interrupt during a turn, rejects it outside one, and ends with turn_interrupted", async () => {
    const controller = fakeDaemon({
      steps: [
        READY,
        { waitFor: "turn.start" },
        { event: { eventType: "item.started", itemId: "long" } },
        { sleep: 60_000 },
      ],
    });
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    controller.send("run.prepare", "c2b");
    controller.send("turn.interrupt", "c3");
    controller.send("turn.start", "c4");
    await controller.waitForEvent("item.started");
    controller.send("turn.interrupt", "c5");
    expect(await controller.waitForReceipt("c5")).toMatchObject({
      status: "accepted",
      detail: "command applied",
    });
    expect(await terminalOf(controller)).toBe("turn_interrupted");
    expect(controller.receiptFor("c2b")[0]).toMatchObject({
      status: "rejected",
      detail: "run is already prepared",
    });
    expect(controller.receiptFor("c3")[0]).toMatchObject({
      status: "rejected",
      detail: "no turn is running",
    });
    expect(controller.event("run.terminal")?.payload).toMatchObject({
      turnTerminalState: "interrupted",
      runTerminalState: "cancelled",
      reportedWorkDisposition: "yielded",
    });
  });

  it("ends with harness_process_failed when the harness crashes mid-turn", async () => {
    const controller = fakeDaemon({
      steps: [READY, { waitFor: "turn.start" }, { stderr: "about to crash" }, { crash: "SIGSEGV" }],
    });
    startTurn(controller);
    expect(await terminalOf(controller)).toBe("harness_process_failed");
    expect(controller.event("harness.exited")?.payload.processExit).toEqual({
      exitCode: null,
      success: false,
      signal: 11,
    });
    expect(logsOf(controller).lines).toContain("stderr: about to crash");
  });

  it("decides the outcome from the exit and the result, never from the harness's proposal", async () => {
    const nonZero = fakeDaemon({
      steps: [READY, { waitFor: "turn.start" }, RESULT, { terminal: SUCCEEDED }, { exit: 3 }],
    });
    const noResult = fakeDaemon({ steps: [READY, { waitFor: "turn.start" }, { exit: 0 }] });
    const contradicted = fakeDaemon({
      steps: [
        READY,
        { waitFor: "turn.start" },
        RESULT,
        {
          terminal: {
            ...SUCCEEDED,
            turnTerminalState: "failed",
            runTerminalState: "failed",
            reportedWorkDisposition: "yielded",
          },
        },
        { exit: 0 },
      ],
    });
    const neverReady = fakeDaemon({ steps: [{ exit: 0 }] });
    for (const controller of [nonZero, noResult, contradicted]) startTurn(controller);
    neverReady.send("run.prepare", "c1");
    expect(await terminalOf(nonZero)).toBe("harness_process_failed");
    expect(await terminalOf(noResult)).toBe("semantic_result_missing");
    expect(await terminalOf(contradicted)).toBe("successful_process_and_result");
    expect(contradicted.event("run.terminal")?.payload.reconciliation).toMatchObject({
      proposalContradicted: true,
    });
    expect(await terminalOf(neverReady)).toBe("harness_start_failed");
    expect(nonZero.event("run.terminal")?.payload).toMatchObject({
      runTerminalState: "failed",
      reportedWorkDisposition: "yielded",
    });
  });

  it("keeps the first result and the first terminal proposal; later ones become diagnostics", async () => {
    const controller = fakeDaemon({
      steps: [
        READY,
        { waitFor: "turn.start" },
        RESULT,
        { result: runResult("second") },
        { terminal: SUCCEEDED },
        { terminal: {} },
        { exit: 0 },
      ],
    });
    startTurn(controller);
    expect(await terminalOf(controller)).toBe("successful_process_and_result");
    expect(controller.events().filter((event) => event.eventType === "run.result.proposed")).toHaveLength(1);
    expect(
      controller
        .events()
        .filter((event) => event.eventType === "harness.diagnostic")
        .map((event) => event.payload.code),
    ).toEqual(["duplicate_semantic_result_ignored", "duplicate_terminal_ignored"]);
  });
});
