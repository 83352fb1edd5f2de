import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  Controller,
  fakeDaemon,
  IDS,
  isAlive,
  runResult,
  tempDir,
  terminalOf,
  type WireEvent,
} from "./local-controller.js";

const READY = { ready: { name: "fake" } };
const RESULT = { result: runResult() };
const SUCCEEDED = {
  schema: "paperclip.prp.terminal.v1",
  turnTerminalState: "completed",
  runTerminalState: "succeeded",
  reportedWorkDisposition: "done",
};

function violationOf(controller: Controller): unknown {
  return controller.events().find((event) => event.payload.code === "harness_protocol_violation")?.payload
    .message;
}

function startTurn(controller: Controller): void {
  controller.send("run.prepare", "c1");
  controller.send("session.open", "c2");
  controller.send("turn.start", "c3", { turnId: "turn-1", text: "hello" });
}

const logsOf = (controller: Controller): { lines: string[]; retainedBytes: number; droppedLines: number } =>
  controller.event("harness.exited")?.payload.logs as {
    lines: string[];
    retainedBytes: number;
    droppedLines: number;
  };

// Real processes on a busy 2-core CI machine: far more than vitest's 5 s default.
describe("local mode, driven over stdin/stdout", { timeout: 60_000 }, () => {
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

  it("answers turn.interrupt when it is forwarded, then ends with turn_interrupted", async () => {
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
    // The receipt is out while the harness still runs: nothing has ended yet.
    expect(controller.event("harness.exited")).toBeUndefined();
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

  it("ends with harness_protocol_violation on a line that breaks the harness protocol", async () => {
    const cases = [
      [{ stdout: "this is not json" }, "harness wrote a line that is not JSON"],
      [{ oversizedStdout: 70_000 }, "harness stdout line of 70000 bytes exceeds the 65536-byte frame"],
      [
        { result: { text: "done" } },
        "harness result is not a structured run result: result.schema must be paperclip.run_result.v1",
      ],
      [
        { event: { eventType: "run.terminal" } },
        "harness event type run.terminal is emitted by the runner only",
      ],
      [{ event: { eventType: "thinking" } }, 'harness event type "thinking" is not a PRP event type'],
    ] as const;
    const controllers = cases.map(([step]) =>
      fakeDaemon({ steps: [READY, { waitFor: "turn.start" }, step, { sleep: 60_000 }] }),
    );
    const early = fakeDaemon({ steps: [{ event: { eventType: "item.delta" } }, READY, { sleep: 60_000 }] });
    for (const controller of controllers) startTurn(controller);
    early.send("run.prepare", "c1");
    for (const [index, controller] of controllers.entries()) {
      expect(await terminalOf(controller)).toBe("harness_protocol_violation");
      expect(violationOf(controller)).toBe(cases[index]?.[1]);
    }
    expect(await terminalOf(early)).toBe("harness_protocol_violation");
    expect(violationOf(early)).toBe("harness sent event before ready");
    expect(early.event("run.terminal")?.payload.reconciliation).toMatchObject({
      detail: expect.stringContaining("harness sent event before ready"),
    });
  });

  it("ignores a second ready with a diagnostic, and reports a typed event it does not validate instead of forwarding it", async () => {
    const controller = fakeDaemon({
      steps: [
        READY,
        READY,
        { waitFor: "turn.start" },
        { event: { eventType: "plan.updated", payload: {} } },
        RESULT,
        { exit: 0 },
      ],
    });
    startTurn(controller);
    expect(await terminalOf(controller)).toBe("successful_process_and_result");
    expect(controller.diagnostics()).toEqual([
      { level: "warning", message: "duplicate harness ready message ignored" },
    ]);
    expect(controller.event("harness.diagnostic")?.payload).toMatchObject({
      code: "harness_event_not_forwarded",
      eventType: "plan.updated",
    });
    expect(controller.event("plan.updated")).toBeUndefined();
  });

  it("turns an oversized stderr line into a marker in the log tail and keeps the run going", async () => {
    const controller = fakeDaemon({
      steps: [
        READY,
        { waitFor: "turn.start" },
        { oversizedStderr: 100_000 },
        { stderr: "after" },
        RESULT,
        { exit: 0 },
      ],
    });
    startTurn(controller);
    expect(await terminalOf(controller)).toBe("successful_process_and_result");
    expect(logsOf(controller)).toMatchObject({
      lines: [
        "stderr: [a line of 100000 bytes exceeded the 65536-byte frame and was dropped]",
        "stderr: after",
      ],
      droppedLines: 0,
    });
  });

  it("bounds the log tail by --log-max-lines and --log-max-bytes", async () => {
    const steps = [
      READY,
      ...Array.from({ length: 10 }, (_, index) => ({ log: `line ${index}` })),
      { exit: 0 },
    ];
    const controller = fakeDaemon({ steps }, undefined, ["--log-max-lines", "3", "--log-max-bytes", "256"]);
    controller.send("run.prepare", "c1");
    await terminalOf(controller);
    expect(logsOf(controller)).toEqual({
      lines: ["stdout: line 7", "stdout: line 8", "stdout: line 9"],
      retainedBytes: 42,
      droppedLines: 7,
    });
  });

  it("answers duplicate, reused, out-of-order, foreign-schema and unimplemented commands with one receipt each", async () => {
    const controller = fakeDaemon({ steps: [READY, { sleep: 60_000 }] });
    controller.send("run.prepare", "c1", { workspace: "w", options: { b: 1, a: 2 } });
    await controller.waitForReceipt("c1");
    // Same command, keys in another order: the canonical JSON is the same.
    controller.sendRaw(
      JSON.stringify({
        payload: { options: { a: 2, b: 1 }, workspace: "w" },
        type: "run.prepare",
        controllerSeq: 1,
        commandId: "c1",
        schema: "paperclip.prp.command.v1",
      }),
    );
    controller.send("run.prepare", "c1", { workspace: "other" }, 1);
    // The whole command is compared: another issuedAt is another command.
    controller.sendRaw(
      JSON.stringify({
        schema: "paperclip.prp.command.v1",
        commandId: "c1",
        controllerSeq: 1,
        type: "run.prepare",
        issuedAt: "2026-08-07T20:45:01.000Z",
        payload: { workspace: "w", options: { b: 1, a: 2 } },
      }),
    );
    controller.send("session.open", "c9", {}, 5);
    controller.sendRaw(
      JSON.stringify({ schema: "paperclip.prp.command.v0", commandId: "c2", controllerSeq: 2 }),
    );
    controller.send("turn.steer", "c2", {}, 2);
    controller.sendRaw("{not json");
    controller.sendRaw(
      JSON.stringify({ schema: "paperclip.prp.command.v1", payload: "x".repeat(1_100_000) }),
    );
    controller.send("run.cancel", "c3", {}, 3);
    expect(await terminalOf(controller)).toBe("run_cancelled");

    const c1 = controller.receiptFor("c1");
    expect(c1.map((receipt) => [receipt.status, receipt.detail])).toEqual([
      ["accepted", "command applied"],
      ["duplicate", "equivalent command already applied"],
      ["rejected", "commandId was reused with different data"],
      ["rejected", "commandId was reused with different data"],
    ]);
    expect(c1[1]?.original).toEqual({ status: "accepted", detail: "command applied" });
    expect(controller.receiptFor("c9")).toEqual([
      expect.objectContaining({
        status: "rejected",
        detail: "controllerSeq is not contiguous",
        expectedControllerSeq: 2,
      }),
    ]);
    expect(controller.receiptFor("c2").map((receipt) => receipt.detail)).toEqual([
      "unsupported command schema",
      "command turn.steer is not implemented in Local runner",
    ]);
    // Lines that name no command cannot get a receipt: they get a diagnostic.
    expect(controller.diagnostics()).toEqual([
      { level: "error", message: "invalid command JSON: the line is not JSON" },
      { level: "error", message: "controller command exceeded 65536 bytes (1100050 bytes skipped)" },
    ]);
    expect(controller.receipts()).toHaveLength(8);
  });

  it("still answers the commands that arrived with the one that ends the run", async () => {
    const controller = fakeDaemon({ steps: [READY] });
    const line = (commandId: string, controllerSeq: number, type: string) =>
      JSON.stringify({ schema: "paperclip.prp.command.v1", commandId, controllerSeq, type, payload: {} });
    // One write, so all four lines are in the daemon's hands when c2 ends the run.
    controller.sendRaw(
      [
        line("c1", 1, "run.prepare"),
        line("c2", 2, "run.cancel"),
        line("c1", 1, "run.prepare"),
        line("c3", 3, "turn.start"),
      ].join("\n"),
    );
    expect(await terminalOf(controller)).toBe("run_cancelled");
    expect(
      controller.receipts().map((receipt) => [receipt.commandId, receipt.status, receipt.detail]),
    ).toEqual([
      ["c1", "accepted", "command applied"],
      ["c2", "accepted", "command applied"],
      ["c1", "duplicate", "equivalent command already applied"],
      ["c3", "rejected", "run is stopping"],
    ]);
  });

  it("ends with controller_closed when stdin closes mid-session, and leaves no harness behind", async () => {
    const pidFile = join(tempDir("eof"), "sleeper.pid");
    const controller = fakeDaemon({
      steps: [
        READY,
        { spawnSleeper: { pidFile, ms: 60_000 } },
        { event: { eventType: "item.started" } },
        { sleep: 60_000 },
      ],
    });
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    const ready = await controller.waitForEvent("harness.ready");
    await controller.waitForEvent("item.started");
    controller.closeStdin();
    expect(await terminalOf(controller)).toBe("controller_closed");
    expect(isAlive(ready.payload.pid as number)).toBe(false);
    expect(isAlive(Number(readFileSync(pidFile, "utf8")))).toBe(false);
  });

  it("escalates to SIGKILL for a harness that ignores SIGTERM, and reports run_cancelled", async () => {
    const controller = fakeDaemon({
      ignoreSigterm: true,
      ignoreStdinEof: true,
      steps: [READY, { sleep: 60_000 }],
    });
    controller.send("run.prepare", "c1");
    const ready = await controller.waitForEvent("harness.ready");
    controller.send("run.cancel", "c2");
    expect(await terminalOf(controller)).toBe("run_cancelled");
    expect(controller.event("harness.exited")?.payload.processExit).toMatchObject({ signal: 9 });
    expect(JSON.stringify(logsOf(controller))).toContain("stderr: fake harness: ignoring SIGTERM");
    expect(isAlive(ready.payload.pid as number)).toBe(false);
  });

  it("ends with runner_shutdown on runner.shutdown and on SIGTERM to the daemon", async () => {
    const byCommand = fakeDaemon({ steps: [READY, { sleep: 60_000 }] });
    const bySignal = fakeDaemon({ steps: [READY, { sleep: 60_000 }] });
    for (const controller of [byCommand, bySignal]) {
      controller.send("run.prepare", "c1");
      await controller.waitForEvent("harness.ready");
    }
    byCommand.send("runner.shutdown", "c2");
    bySignal.kill("SIGTERM");
    expect(await terminalOf(byCommand)).toBe("runner_shutdown");
    expect(await terminalOf(bySignal)).toBe("runner_shutdown");
    expect(byCommand.receiptFor("c2")[0]).toMatchObject({ status: "accepted" });
  });

  it("gives the harness a minimal environment: a secret reaches it only when the launcher names it", async () => {
    const script = { steps: [READY, { emitEnv: true }, { sleep: 60_000 }] };
    const env = {
      ...process.env,
      OPENAI_API_KEY: "sk-test-secret-value-123",
      UNRELATED_TOKEN: "t0ken-value",
    };
    const namesOf = async (controller: Controller): Promise<string[]> => {
      controller.send("run.prepare", "c1");
      const event: WireEvent = await controller.waitForEvent("session.updated");
      controller.send("run.cancel", "c2");
      await terminalOf(controller);
      return event.payload.names as string[];
    };
    const plainNames = await namesOf(fakeDaemon(script, env));
    expect(plainNames).toContain("PATH");
    expect(plainNames).toContain("PAPERCLIP_RUN_ID");
    expect(plainNames).not.toContain("OPENAI_API_KEY");
    expect(plainNames).not.toContain("UNRELATED_TOKEN");
    const namedNames = await namesOf(
      fakeDaemon(script, { ...env, PAPERCLIP_RUNNER_HARNESS_ENV: "OPENAI_API_KEY" }),
    );
    expect(namedNames).toContain("OPENAI_API_KEY");
    expect(namedNames).not.toContain("UNRELATED_TOKEN");
  });

  it("runs any harness speaking the protocol with --harness-command and --harness-arg", async () => {
    const result = JSON.stringify({ type: "result", result: { ...runResult(), summary: "%s" } });
    const controller = new Controller([
      ...IDS,
      "--harness-command",
      "/bin/sh",
      "--harness-arg",
      "-c",
      "--harness-arg",
      `echo '{"type":"ready"}'; read line; read line; printf '${result}\\n' "$1"`,
      "--harness-arg",
      "sh",
      "--harness-arg",
      "--verbatim-argument",
    ]);
    startTurn(controller);
    expect(await terminalOf(controller)).toBe("successful_process_and_result");
    expect(controller.event("run.result.proposed")?.payload.summary).toBe("--verbatim-argument");
    expect(controller.event("harness.starting")?.payload).toMatchObject({
      label: "sh",
      driverKind: "command",
    });
  });

  it("still takes a cancel when the harness stopped reading its stdin", async () => {
    const controller = new Controller([
      ...IDS,
      "--harness-command",
      "/bin/sh",
      "--harness-arg",
      "-c",
      "--harness-arg",
      `echo '{"type":"ready"}'; exec sleep 60`,
      "--controller-max-line-bytes",
      "1048576",
    ]);
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    // Far more than a pipe holds: this write cannot complete.
    controller.send("turn.start", "c3", { input: "x".repeat(300_000) });
    controller.send("run.cancel", "c4");
    expect(await terminalOf(controller)).toBe("run_cancelled");
    expect(controller.receiptFor("c4")[0]).toMatchObject({ status: "accepted" });
  });

  it("reports a harness command that cannot be spawned as harness_start_failed", async () => {
    const controller = new Controller([...IDS, "--harness-command", "/nonexistent/harness"]);
    controller.send("run.prepare", "c1");
    expect(await terminalOf(controller)).toBe("harness_start_failed");
    expect(String(controller.event("harness.exited")?.payload.spawnError)).toContain("ENOENT");
  });
});
