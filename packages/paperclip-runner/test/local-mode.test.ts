import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Controller, IDS, isAlive, tempDir, type WireEvent, writeScript } from "./local-controller.js";

function fakeDaemon(script: unknown, env?: NodeJS.ProcessEnv): { controller: Controller; dir: string } {
  const dir = tempDir("local");
  const path = writeScript(dir, script);
  return { controller: new Controller([...IDS, "--fake-harness", "--script", path], env), dir };
}

/** Every run's stream invariants: contiguous seq from 1, ids from run id and seq, exactly one terminal, last. */
function expectWellFormedStream(events: readonly WireEvent[]): void {
  expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
  for (const event of events) expect(event.id).toBe(`event_run-1_${event.seq}`);
  const terminals = events.filter((event) => event.type === "run.terminal");
  expect(terminals).toHaveLength(1);
  expect(events.at(-1)?.type).toBe("run.terminal");
}

async function terminalOf(controller: Controller): Promise<string> {
  const terminal = await controller.waitForEvent("run.terminal");
  const exit = await controller.exited;
  expect(exit.code).toBe(0);
  expectWellFormedStream(controller.events());
  return terminal.data.reason as string;
}

const READY = { ready: { name: "fake" } };

function reasonOfViolation(controller: Controller): unknown {
  return controller.events().find((event) => event.type === "harness.protocol_violation")?.data.reason;
}

// Real processes on a busy 2-core CI machine: far more than vitest\'s 5 s default.
describe("local mode, driven over stdin/stdout", { timeout: 60_000 }, () => {
  it("runs a session to successful_process_and_result, with receipts, ordered events and a redacted log tail", async () => {
    const { controller } = fakeDaemon({
      steps: [
        // Only log and diagnostic messages may come before ready.
        { diagnostic: { model: "fake-1", warmup: true } },
        READY,
        { waitFor: "session.open" },
        { waitFor: "turn.start" },
        { event: { kind: "thinking" } },
        { log: "using key sk-live-abcdefghijklmnop" },
        { stderr: "warning: OPENAI_API_KEY=sk-proj-0123456789abcdef leaked" },
        { result: { text: "done" } },
        { terminal: { status: "succeeded" } },
        { exit: 0 },
      ],
    });
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    controller.send("turn.start", "c3", { input: "hello" });
    expect(await terminalOf(controller)).toBe("successful_process_and_result");

    for (const id of ["c1", "c2", "c3"]) {
      expect(controller.receiptFor(id)).toEqual([
        expect.objectContaining({ status: "accepted", message: "command applied" }),
      ]);
    }
    const types = controller.events().map((event) => event.type);
    expect(types).toEqual([
      "runner.started",
      "run.phase",
      "run.phase",
      "harness.starting",
      "harness.diagnostic",
      "harness.ready",
      "run.phase",
      "run.phase",
      "harness.event",
      "harness.log",
      "harness.result",
      "run.phase",
      "harness.terminal",
      "harness.exited",
      "run.phase",
      "run.terminal",
    ]);
    const events = controller.events();
    const result = events.find((event) => event.type === "harness.result");
    expect(result?.data).toEqual({ turnCommandId: "c3", result: { text: "done" } });
    expect(events.find((event) => event.type === "harness.diagnostic")?.data).toEqual({
      diagnostic: { model: "fake-1", warmup: true },
    });
    const log = events.find((event) => event.type === "harness.log");
    expect(log?.data.message).toBe("using key [REDACTED]");
    const exited = events.find((event) => event.type === "harness.exited");
    expect(exited?.data).toMatchObject({ exitCode: 0, signal: null });
    const tail = JSON.stringify(exited?.data.logTail);
    expect(tail).toContain("OPENAI_API_KEY=[REDACTED]");
    expect(tail).not.toContain("sk-proj-0123456789abcdef");
  });

  it("forwards a harness request and the controller's resolution, and refuses an unknown request id", async () => {
    const { controller } = fakeDaemon({
      steps: [
        READY,
        { waitFor: "turn.start" },
        { request: { requestId: "perm-1", kind: "approval", tool: "shell" } },
      ],
      on: {
        "request.resolve": [
          { event: { resolvedBy: "{{commandId}}", resolution: "{{payload}}" } },
          { result: { approved: true } },
          { exit: 0 },
        ],
      },
    });
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    controller.send("turn.start", "c3");
    const request = await controller.waitForEvent("harness.request");
    expect(request.data).toEqual({ requestId: "perm-1", request: { kind: "approval", tool: "shell" } });
    controller.send("request.resolve", "c4", { requestId: "nope" });
    expect(await controller.waitForReceipt("c4")).toMatchObject({
      status: "rejected",
      message: "unknown request nope",
    });
    controller.send("request.resolve", "c5", { requestId: "perm-1", decision: "allow" });
    expect(await terminalOf(controller)).toBe("successful_process_and_result");
    expect(controller.receiptFor("c5")[0]).toMatchObject({ status: "accepted" });
    // The harness got the controller's resolution verbatim.
    expect(controller.events().find((event) => event.type === "harness.event")?.data.event).toEqual({
      resolvedBy: "c5",
      resolution: { requestId: "perm-1", decision: "allow" },
    });
  });

  it("ends with turn_interrupted when the controller interrupts a running turn", async () => {
    const { controller } = fakeDaemon({
      steps: [READY, { waitFor: "turn.start" }, { event: { kind: "working" } }, { sleep: 60_000 }],
    });
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    controller.send("run.prepare", "c2b");
    controller.send("turn.interrupt", "c3");
    controller.send("turn.start", "c4");
    await controller.waitForEvent("harness.event");
    controller.send("turn.interrupt", "c5");
    expect(await terminalOf(controller)).toBe("turn_interrupted");
    expect(controller.receiptFor("c2b")[0]).toMatchObject({
      status: "rejected",
      message: "run is already prepared",
    });
    expect(controller.receiptFor("c3")[0]).toMatchObject({
      status: "rejected",
      message: "no turn is running",
    });
    expect(controller.receiptFor("c5")[0]).toMatchObject({ status: "accepted", message: "command applied" });
    const exited = controller.events().find((event) => event.type === "harness.exited");
    expect(exited?.data.signal ?? exited?.data.exitCode).not.toBeNull();
  });

  it("ends with harness_process_failed when the harness crashes mid-turn", async () => {
    const { controller } = fakeDaemon({
      steps: [READY, { waitFor: "turn.start" }, { stderr: "about to crash" }, { crash: "SIGSEGV" }],
    });
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    controller.send("turn.start", "c3");
    expect(await terminalOf(controller)).toBe("harness_process_failed");
    const exited = controller.events().find((event) => event.type === "harness.exited");
    expect(exited?.data).toMatchObject({ exitCode: null, signal: "SIGSEGV" });
    expect(JSON.stringify(exited?.data.logTail)).toContain("about to crash");
  });

  it("tells a non-zero exit, a missing result and a harness-reported failure apart", async () => {
    const nonZero = fakeDaemon({
      steps: [READY, { waitFor: "turn.start" }, { result: {} }, { exit: 3 }],
    }).controller;
    const noResult = fakeDaemon({ steps: [READY, { waitFor: "turn.start" }, { exit: 0 }] }).controller;
    const reported = fakeDaemon({
      steps: [
        READY,
        { waitFor: "turn.start" },
        { result: {} },
        { terminal: { status: "failed" } },
        { exit: 0 },
      ],
    }).controller;
    const neverReady = fakeDaemon({ steps: [{ exit: 0 }] }).controller;
    for (const controller of [nonZero, noResult, reported, neverReady]) {
      controller.send("run.prepare", "c1");
      controller.send("session.open", "c2");
      controller.send("turn.start", "c3");
    }
    expect(await terminalOf(nonZero)).toBe("harness_process_failed");
    expect(await terminalOf(noResult)).toBe("semantic_result_missing");
    expect(await terminalOf(reported)).toBe("harness_reported_failure");
    expect(await terminalOf(neverReady)).toBe("harness_start_failed");
  });

  it("ends with harness_protocol_violation on a non-protocol stdout line and on an oversized one", async () => {
    const garbage = fakeDaemon({
      steps: [READY, { waitFor: "turn.start" }, { stdout: "this is not json" }, { sleep: 60_000 }],
    }).controller;
    const oversized = fakeDaemon({
      steps: [READY, { waitFor: "turn.start" }, { oversizedStdout: 70_000 }, { sleep: 60_000 }],
    }).controller;
    const early = fakeDaemon({ steps: [{ event: { too: "early" } }, READY, { sleep: 60_000 }] }).controller;
    const twice = fakeDaemon({ steps: [READY, READY, { sleep: 60_000 }] }).controller;
    for (const controller of [garbage, oversized, early, twice]) {
      controller.send("run.prepare", "c1");
      controller.send("session.open", "c2");
      controller.send("turn.start", "c3");
    }
    for (const controller of [garbage, oversized, early, twice]) {
      expect(await terminalOf(controller)).toBe("harness_protocol_violation");
    }
    expect(reasonOfViolation(early)).toBe("harness sent event before ready");
    expect(reasonOfViolation(twice)).toBe("harness sent ready twice");
    expect(reasonOfViolation(garbage)).toBe("harness wrote a line that is not JSON");
    expect(reasonOfViolation(oversized)).toBe(
      "harness stdout line of 70000 bytes exceeds the 65536-byte frame",
    );
  });

  it("turns an oversized stderr line into a marker in the log tail and keeps the run going", async () => {
    const { controller } = fakeDaemon({
      steps: [
        READY,
        { waitFor: "turn.start" },
        { oversizedStderr: 100_000 },
        { stderr: "after" },
        { result: 1 },
        { exit: 0 },
      ],
    });
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    controller.send("turn.start", "c3");
    expect(await terminalOf(controller)).toBe("successful_process_and_result");
    const exited = controller.events().find((event) => event.type === "harness.exited");
    expect(exited?.data.logTail).toEqual({
      lines: [
        "[paperclip-runner: a stderr line of 100000 bytes exceeded the 65536-byte frame and was dropped]",
        "after",
      ],
      droppedLines: 0,
    });
  });

  it("answers duplicate, reused, out-of-order, foreign-schema and unimplemented commands with one receipt each", async () => {
    const { controller } = fakeDaemon({ steps: [READY, { sleep: 60_000 }] });
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
    expect(c1.map((receipt) => [receipt.status, receipt.message])).toEqual([
      ["accepted", "command applied"],
      ["duplicate", "equivalent command already applied"],
      ["rejected", "commandId was reused with different data"],
    ]);
    expect(c1[1]?.original).toEqual({ status: "accepted", message: "command applied" });
    expect(controller.receiptFor("c9")).toEqual([
      expect.objectContaining({
        status: "rejected",
        message: "controllerSeq is not contiguous",
        expectedControllerSeq: 2,
      }),
    ]);
    expect(controller.receiptFor("c2").map((receipt) => receipt.message)).toEqual([
      "unsupported command schema",
      "command turn.steer is not implemented in Local runner",
    ]);
    expect(controller.receiptFor(null as unknown as string)).toEqual([
      expect.objectContaining({ status: "rejected", message: "command is not valid JSON" }),
      expect.objectContaining({
        status: "rejected",
        message: "command line of 1100050 bytes exceeds 1048576 bytes",
      }),
    ]);
    // Every command line got exactly one receipt: 9 lines, 9 receipts.
    expect(controller.receipts()).toHaveLength(9);
  });

  it("still answers the commands that arrived with the one that ended the run", async () => {
    const { controller } = fakeDaemon({ steps: [READY] });
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
      controller.receipts().map((receipt) => [receipt.commandId, receipt.status, receipt.message]),
    ).toEqual([
      ["c1", "accepted", "command applied"],
      ["c2", "accepted", "command applied"],
      ["c1", "duplicate", "equivalent command already applied"],
      ["c3", "rejected", "run has already finished"],
    ]);
  });

  it("ends with controller_closed when stdin closes mid-session, and leaves no harness behind", async () => {
    const dir = tempDir("eof");
    const pidFile = join(dir, "sleeper.pid");
    const { controller } = fakeDaemon({
      steps: [
        READY,
        { spawnSleeper: { pidFile, ms: 60_000 } },
        { event: { spawned: true } },
        { sleep: 60_000 },
      ],
    });
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    const ready = await controller.waitForEvent("harness.ready");
    await controller.waitForEvent("harness.event");
    controller.closeStdin();
    expect(await terminalOf(controller)).toBe("controller_closed");
    expect(isAlive(ready.data.pid as number)).toBe(false);
    expect(isAlive(Number(readFileSync(pidFile, "utf8")))).toBe(false);
  });

  it("escalates to SIGKILL for a harness that ignores SIGTERM, and reports run_cancelled", async () => {
    const { controller } = fakeDaemon({
      ignoreSigterm: true,
      ignoreStdinEof: true,
      steps: [READY, { sleep: 60_000 }],
    });
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    const ready = await controller.waitForEvent("harness.ready");
    controller.send("run.cancel", "c3");
    expect(await terminalOf(controller)).toBe("run_cancelled");
    const exited = controller.events().find((event) => event.type === "harness.exited");
    expect(exited?.data.signal).toBe("SIGKILL");
    expect(JSON.stringify(exited?.data.logTail)).toContain("fake harness: ignoring SIGTERM");
    expect(isAlive(ready.data.pid as number)).toBe(false);
  });

  it("ends with runner_shutdown on runner.shutdown and on SIGTERM to the daemon", async () => {
    const byCommand = fakeDaemon({ steps: [READY, { sleep: 60_000 }] }).controller;
    const bySignal = fakeDaemon({ steps: [READY, { sleep: 60_000 }] }).controller;
    for (const controller of [byCommand, bySignal]) {
      controller.send("run.prepare", "c1");
      controller.send("session.open", "c2");
      await controller.waitForEvent("harness.ready");
    }
    byCommand.send("runner.shutdown", "c3");
    bySignal.kill("SIGTERM");
    expect(await terminalOf(byCommand)).toBe("runner_shutdown");
    expect(await terminalOf(bySignal)).toBe("runner_shutdown");
    expect(byCommand.receiptFor("c3")[0]).toMatchObject({ status: "accepted" });
  });

  it("gives the harness a minimal environment: a secret reaches it only when the launcher names it", async () => {
    const script = { steps: [READY, { emitEnv: true }, { sleep: 60_000 }] };
    const env = {
      ...process.env,
      OPENAI_API_KEY: "sk-test-secret-value-123",
      UNRELATED_TOKEN: "t0ken-value",
    };
    const plain = fakeDaemon(script, env).controller;
    const named = fakeDaemon(script, { ...env, PAPERCLIP_RUNNER_HARNESS_ENV: "OPENAI_API_KEY" }).controller;
    const namesOf = async (controller: Controller): Promise<string[]> => {
      controller.send("run.prepare", "c1");
      controller.send("session.open", "c2");
      const event = await controller.waitForEvent("harness.event");
      controller.send("run.cancel", "c3");
      await terminalOf(controller);
      return (event.data.event as { names: string[] }).names;
    };
    const plainNames = await namesOf(plain);
    expect(plainNames).toContain("PATH");
    expect(plainNames).toContain("PAPERCLIP_RUN_ID");
    expect(plainNames).not.toContain("OPENAI_API_KEY");
    expect(plainNames).not.toContain("UNRELATED_TOKEN");
    const namedNames = await namesOf(named);
    expect(namedNames).toContain("OPENAI_API_KEY");
    expect(namedNames).not.toContain("UNRELATED_TOKEN");
  });

  it("runs any harness speaking the protocol with --harness-command and --harness-arg", async () => {
    const controller = new Controller([
      ...IDS,
      "--harness-command",
      "/bin/sh",
      "--harness-arg",
      "-c",
      "--harness-arg",
      'echo \'{"type":"ready"}\'; read line; read line; echo "{\\"type\\":\\"result\\",\\"result\\":\\"$1\\"}"',
      "--harness-arg",
      "sh",
      "--harness-arg",
      "--verbatim-argument",
    ]);
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    controller.send("turn.start", "c3");
    expect(await terminalOf(controller)).toBe("successful_process_and_result");
    const result = controller.events().find((event) => event.type === "harness.result");
    expect(result?.data.result).toBe("--verbatim-argument");
    expect(controller.events().find((event) => event.type === "harness.starting")?.data.label).toBe("sh");
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
    controller.send("session.open", "c2");
    expect(await terminalOf(controller)).toBe("harness_start_failed");
    const exited = controller.events().find((event) => event.type === "harness.exited");
    expect(String(exited?.data.spawnError)).toContain("ENOENT");
  });
});
