import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { beforeAll, describe, expect, it } from "vitest";
import { runScenario, type ScenarioResult, type Toolchain, toolchainPaths } from "./oracle.js";

let tools: Toolchain;
beforeAll(() => {
  tools = toolchainPaths();
});

/** Every committed event passed the server's own PRP schema validator, and the run's ids are 1..N once each. */
function expectCompleteOrderedStream(result: ScenarioResult): void {
  const checks = result.records.filter((record) => record.type === "schema");
  expect(checks.length).toBeGreaterThan(0);
  for (const check of checks) expect(check).toMatchObject({ ok: true, issues: [] });
  const ids = result.report.committedEventIds;
  expect(new Set(ids).size).toBe(ids.length);
  const seqs = result.report.committedSeqs;
  expect(seqs).toEqual(seqs.map((_, index) => index + 1));
  expect(result.report.ackedSourceSeq).toBe(ids.length);
}

/** Each command got exactly one result; a command in flight at a failure is indeterminate, never run again. */
function expectEveryCommandAnswered(result: ScenarioResult): void {
  for (const command of result.report.commands) {
    expect(["completed", "rejected", "indeterminate"]).toContain(command.status);
    expect(command.result).toMatchObject({ commandId: command.commandId, status: command.status });
  }
}

/** The runner's persisted diagnostic as it was when its `index`th process exited. */
function diagnosticAt(result: ScenarioResult, index: number): string {
  return String(result.records.filter((record) => record.type === "diagnostic")[index]?.text ?? "");
}

function eventTypes(result: ScenarioResult): string[] {
  const first = new Map<number, string>();
  for (const event of result.committed)
    if (!first.has(event.sourceSeq)) first.set(event.sourceSeq, event.eventType);
  return [...first.entries()].sort(([a], [b]) => a - b).map(([, type]) => type);
}

/** The runner's state directory after the run: private, no ticket, no lease token, an empty outbox. */
async function expectPrivateSettledState(work: string): Promise<Record<string, unknown>> {
  const dir = path.join(work, "runner");
  expect((await stat(dir)).mode & 0o777).toBe(0o700);
  const texts: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const mode = (await stat(file)).mode & 0o777;
    if (entry.isDirectory()) expect(mode).toBe(0o700);
    else {
      expect(mode).toBe(0o600);
      texts.push(await readFile(file, "utf8"));
    }
  }
  for (const text of texts) {
    expect(text).not.toMatch(/bootstrap_[0-9a-f-]{36}/);
    expect(text).not.toMatch(/lease_[0-9a-f-]{36}/);
  }
  const state = JSON.parse(await readFile(path.join(dir, "runner-state.json"), "utf8")) as Record<
    string,
    unknown
  >;
  expect(state).toMatchObject({
    schema: "paperclip.runner.durable.state.v1",
    outbox: [],
    lifecycle: "stopped",
    recoverableFailure: null,
  });
  return state;
}

const RESULT = {
  schema: "paperclip.run_result.v1",
  reportedWorkDisposition: "done",
  summary: "a scripted turn",
  completionClaim: { contractRevision: "1", objectiveSatisfied: true, criteria: [], remainingWork: [] },
  evidence: [],
  verification: [],
  attentionRequests: [],
  artifacts: [],
};

const LONG_TURN = (commandLog: string): Record<string, unknown> => ({
  commandLog,
  steps: [{ ready: { harness: "oracle long turn" } }],
  on: {
    "turn.start": [
      { event: { eventType: "item.completed", payload: { text: "first" } } },
      { event: { eventType: "item.completed", payload: { text: "second" } } },
      { event: { eventType: "item.completed", payload: { text: "third" } } },
      { sleep: 60_000 },
    ],
  },
});

describe("paperclip-runnerd against the real server's spawnRunner and DurablePrpControlPlane", () => {
  it("runs a scripted turn: handshake, ordered acknowledged events, a result then the terminal, receipts for every command", async () => {
    const work = tempDirForTest("runner oracle-");
    // The server's own launcher, argv untouched: its fake-harness paths do not exist, so the built-in script runs.
    const result = await runScenario(tools, work, { kind: "happy" });
    expectCompleteOrderedStream(result);
    const types = eventTypes(result);
    expect(types.indexOf("run.result.proposed")).toBeGreaterThan(0);
    expect(types.indexOf("run.terminal")).toBeGreaterThan(types.indexOf("run.result.proposed"));
    const terminal = result.committed.find((event) => event.eventType === "run.terminal");
    expect(terminal?.payload).toMatchObject({
      schema: "paperclip.prp.terminal.v1",
      turnTerminalState: "completed",
      runTerminalState: "succeeded",
    });
    expect(result.report.commands.map((command) => [command.type, command.status])).toEqual([
      ["run.prepare", "completed"],
      ["session.open", "completed"],
      ["turn.start", "completed"],
      ["runner.shutdown", "completed"],
    ]);
    expect(result.report.commands[2]?.result).toMatchObject({
      result: { providerTurnId: "turn-oracle-1" },
    });
    expect(result.report).toMatchObject({ freshBootstraps: 1, connectionCount: 1, malformedFrames: 0 });
    // The server speaks PRP 1 and 2 and picks the highest both offer, as with upstream's runner.
    expect(result.report.leaseProtocolVersions).toEqual([2]);
    expect(result.exits).toEqual([{ type: "exit", phase: "final", code: 0, signal: null }]);
    await expectPrivateSettledState(work);
  });

  it("survives a SIGKILL while events are sent but not committed: a fresh ticket resumes, nothing lost or repeated, the turn runs once, the old harness is gone", async () => {
    const work = tempDirForTest("runner oracle-");
    const commandLog = path.join(work, "harness-commands.log");
    // Seq 9 is the second item of the turn: the server holds its commit until the runner is killed, then drops it.
    const result = await runScenario(tools, work, {
      kind: "sigkill",
      script: LONG_TURN(commandLog),
      blockCommitAt: 9,
    });
    expectCompleteOrderedStream(result);
    expect(result.exits.map((exit) => [exit.phase, exit.code, exit.signal])).toEqual([
      ["killed", null, "SIGKILL"],
      ["final", 0, null],
    ]);
    expect(result.report.freshBootstraps).toBe(2);
    const types = eventTypes(result);
    expect(types.filter((type) => type === "item.completed")).toHaveLength(3);
    expect(types).toContain("runner.reconciled");
    const reconciled = result.committed.find((event) => event.eventType === "runner.reconciled");
    // Gone either way: its group watchdog saw the runner die, or the new runner killed it before resuming.
    expect(reconciled?.payload).toMatchObject({
      abandonedTurn: "command_prp_00000003",
      resumedSession: true,
    });
    expect(result.records.find((record) => record.type === "harness_after_restart")).toMatchObject({
      alive: false,
    });
    const harnessCommands = (await readFile(commandLog, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { command: string; resume: boolean });
    expect(harnessCommands.filter((command) => command.command === "turn.start")).toHaveLength(1);
    await expectPrivateSettledState(work);
  });

  it("resumes with the connection lease, not a new ticket, after a commit that fails once", async () => {
    const work = tempDirForTest("runner oracle-");
    const result = await runScenario(tools, work, { kind: "happy", failCommitAt: 6 });
    expectCompleteOrderedStream(result);
    expect(result.records.filter((record) => record.type === "commit_failed")).toHaveLength(1);
    expect(result.report).toMatchObject({ freshBootstraps: 1, connectionCount: 2 });
    // Events made while the connection was down went out in the lease's version.
    expect(new Set(result.report.leaseProtocolVersions)).toEqual(new Set([2]));
    expect(eventTypes(result)).toContain("run.terminal");
    expect(result.exits).toEqual([{ type: "exit", phase: "final", code: 0, signal: null }]);
    await expectPrivateSettledState(work);
  });

  it("stops with ERR_RUNNER_DURABLE_LEASE_EXPIRED and its state kept when the lease has expired; a fresh ticket finishes the run", async () => {
    const work = tempDirForTest("runner oracle-");
    const result = await runScenario(tools, work, { kind: "expire_lease" });
    expect(result.exits.map((exit) => [exit.phase, exit.code])).toEqual([
      ["lease", 1],
      ["final", 0],
    ]);
    expect(diagnosticAt(result, 0)).toContain("ERR_RUNNER_DURABLE_LEASE_EXPIRED");
    expectCompleteOrderedStream(result);
    expectEveryCommandAnswered(result);
    const types = eventTypes(result);
    expect(types).toContain("runner.reconciled");
    expect(types.at(-1)).toBe("run.terminal");
    expect(result.report.freshBootstraps).toBe(2);
    const state = await expectPrivateSettledState(work);
    // The failure of the first process stays in the state's diagnostics for the server to show.
    expect(state.diagnostics).toEqual([expect.stringMatching(/^ERR_RUNNER_DURABLE_LEASE_EXPIRED: /)]);
  });

  it("refuses a tampered server frame with ERR_RUNNER_DURABLE_FRAME_INVALID, keeps its state, and resumes on a fresh ticket", async () => {
    const work = tempDirForTest("runner oracle-");
    const result = await runScenario(tools, work, {
      kind: "tamper_server_to_runner",
      tamper: "server_to_runner",
    });
    expect(result.records.filter((record) => record.type === "tampered")).toHaveLength(1);
    expect(result.exits.map((exit) => [exit.phase, exit.code])).toEqual([
      ["tampered", 1],
      ["final", 0],
    ]);
    expect(diagnosticAt(result, 0)).toContain("ERR_RUNNER_DURABLE_FRAME_INVALID");
    expectCompleteOrderedStream(result);
    expectEveryCommandAnswered(result);
    expect(eventTypes(result)).toContain("runner.reconciled");
    expect(eventTypes(result).at(-1)).toBe("run.terminal");
    await expectPrivateSettledState(work);
  });

  it("reconnects with its lease when the server refuses a tampered runner frame, and resends what was not committed", async () => {
    const work = tempDirForTest("runner oracle-");
    const result = await runScenario(tools, work, { kind: "happy", tamper: "runner_to_server" });
    expect(result.report).toMatchObject({ malformedFrames: 1, freshBootstraps: 1, connectionCount: 2 });
    expectCompleteOrderedStream(result);
    expect(eventTypes(result)).toContain("run.terminal");
    await expectPrivateSettledState(work);
  });

  it("renews its connection lease with the server while a long turn runs, on the same connection", async () => {
    const work = tempDirForTest("runner oracle-");
    const result = await runScenario(tools, work, {
      kind: "renew",
      script: {
        steps: [{ ready: {} }],
        on: {
          "turn.start": [
            { sleep: 35_000 },
            {
              result: RESULT,
            },
            { terminal: { status: "succeeded" } },
            { exit: 0 },
          ],
        },
      },
    });
    const leases = result.records.filter((record) => record.type === "lease");
    const [welcome, end] = leases.map((record) => Date.parse(String(record.expiresAt)));
    expect(end).toBeGreaterThan(welcome as number);
    expect(result.report).toMatchObject({ freshBootstraps: 1, connectionCount: 1 });
    expectCompleteOrderedStream(result);
    expect(eventTypes(result).at(-1)).toBe("run.terminal");
  }, 120_000);

  it("stops with ERR_RUNNER_DURABLE_OUTBOX_FULL when the server acknowledges nothing, its outbox within the bound and its state kept", async () => {
    const work = tempDirForTest("runner oracle-");
    const result = await runScenario(tools, work, {
      kind: "outbox_full",
      // The harness talks on its own once ready: the events pile up while nothing is acknowledged.
      script: {
        steps: [
          { ready: {} },
          {
            eventBurst: {
              count: 40,
              event: { eventType: "item.delta", payload: { text: "x".repeat(200) } },
            },
          },
        ],
      },
      blockCommitAt: 1,
      maxOutboxBytes: 6_000,
      p0ReserveBytes: 2_000,
    });
    expect(result.exits.map((exit) => [exit.phase, exit.code])).toEqual([["outbox", 1]]);
    expect(diagnosticAt(result, 0)).toContain("ERR_RUNNER_DURABLE_OUTBOX_FULL");
    expect(diagnosticAt(result, 0)).toContain("durable outbox would exceed 4000 bytes (normal)");
    const state = JSON.parse(await readFile(path.join(work, "runner", "runner-state.json"), "utf8")) as {
      outbox: { sourceSeq: number }[];
      outboxBytes: number;
      ackedSourceSeq: number;
      lifecycle: string;
      recoverableFailure: string | null;
    };
    // Kept as it was: every unacknowledged event still there, from seq 1, within the normal bound.
    expect(state.ackedSourceSeq).toBe(0);
    expect(state.outbox[0]?.sourceSeq).toBe(1);
    expect(state.outboxBytes).toBeLessThanOrEqual(4_000);
    // What the server shows for a run that stopped: the failure, nothing else changed.
    expect(state.lifecycle).toBe("recoverable_failure");
    expect(state.recoverableFailure).toMatch(
      /^ERR_RUNNER_DURABLE_OUTBOX_FULL: durable outbox would exceed 4000 bytes/,
    );
    expect(result.report.committedSeqs).toEqual([]);
  });
});
