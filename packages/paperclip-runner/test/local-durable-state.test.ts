import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import type { RunnerState } from "../src/state/runner-state.js";
import { readStoredState } from "../src/state/state-store.js";
import { turnCompleted } from "./helpers/local-steps.js";
import { builtinHarnessArgs, Controller, type WireEvent, writeScript } from "./local-controller.js";

/** The harness names each turn by its command id and completes it with a `turn.completed` of that id. */
const TURN_HANDLER = [
  { event: { eventType: "item.started", turnId: "{{commandId}}" } },
  { sleep: 300 },
  { event: { eventType: "turn.completed", turnId: "{{commandId}}" } },
];

interface LoggedCommand {
  commandId: string;
  command: string;
  resume: boolean;
}

function commandLog(path: string): LoggedCommand[] {
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as LoggedCommand);
}

/** The state the daemon left: its snapshot with the journal's records applied. */
async function stateFile(stateDir: string): Promise<RunnerState> {
  const state = await readStoredState(stateDir, (text) => JSON.parse(text) as RunnerState);
  if (state === null) throw new Error(`no state in ${stateDir}`);
  return state;
}
// Real processes on a busy 2-core CI machine: far more than vitest's 5 s default.
describe("durable state with --state-dir", { timeout: 60_000 }, () => {
  it("survives a SIGKILL mid-run: no command repeated, none lost, events resent with their ids", async () => {
    const dir = tempDirForTest("runner-durable-");
    const stateDir = join(dir, "state");
    const log = join(dir, "commands.log");
    const script = writeScript(dir, {
      commandLog: log,
      steps: [{ ready: {} }],
      on: { "turn.start": TURN_HANDLER },
    });
    const args = builtinHarnessArgs(script, ["--state-dir", stateDir]);

    const first = new Controller(args);
    first.send("run.prepare", "c1");
    first.send("session.open", "c2");
    first.send("turn.start", "c3");
    const result3 = await turnCompleted(first, "c3");
    first.ack(result3.sourceSeq);
    first.send("turn.start", "c4");
    await first.waitForReceipt("c4");
    // The daemon dies with turn c4 running in its harness.
    first.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    const seenBeforeCrash = first.events();

    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(stateDir, "runner-state.json")).mode & 0o777).toBe(0o600);
    // The journal keys each command by id with the SHA-256 of its canonical (sorted-key) JSON.
    const canonical = JSON.stringify({
      commandId: "c3",
      controllerSeq: 3,
      payload: {},
      schema: "paperclip.prp.command.v1",
      type: "turn.start",
    });
    expect((await stateFile(stateDir)).journal.c3).toMatchObject({
      status: "done",
      fingerprint: createHash("sha256").update(canonical).digest("hex"),
      outcome: { status: "accepted", detail: "command applied" },
    });

    const second = new Controller(args);
    // A controller that lost track resends everything it had sent, then carries on.
    second.send("run.prepare", "c1");
    second.send("session.open", "c2");
    second.send("turn.start", "c3");
    second.send("turn.start", "c4");
    const reconciled = await second.waitForEvent("runner.reconciled");
    expect(reconciled.payload).toMatchObject({
      restarts: 1,
      indeterminateCommands: [],
      abandonedTurn: "c4",
      resumedSession: true,
      ackedSeq: result3.sourceSeq,
    });
    await second.waitForReceipt("c4");
    second.send("turn.start", "c5");
    await turnCompleted(second, "c5");
    second.send("turn.start", "c6");
    await turnCompleted(second, "c6");
    second.send("runner.shutdown", "c7");
    await second.waitForEvent("run.terminal");
    expect((await second.exited).code).toBe(0);

    for (const id of ["c1", "c2", "c3", "c4"]) {
      expect(second.receiptFor(id)).toEqual([
        expect.objectContaining({
          status: "duplicate",
          detail: "equivalent command already applied",
          original: { status: "accepted", detail: "command applied" },
        }),
      ]);
    }
    for (const id of ["c5", "c6", "c7"])
      expect(second.receiptFor(id)[0]).toMatchObject({ status: "accepted" });

    // The harness side effect: every turn reached a harness exactly once.
    const turns = commandLog(log).filter((entry) => entry.command === "turn.start");
    expect(turns.map((entry) => entry.commandId)).toEqual(["c3", "c4", "c5", "c6"]);
    expect(commandLog(log).filter((entry) => entry.command === "session.open")).toEqual([
      { commandId: "c2", command: "session.open", resume: false },
      { commandId: "c2", command: "session.open", resume: true },
    ]);

    // The restarted daemon resent what was not acknowledged, under the same ids, then numbered on.
    const afterRestart = second.events();
    const replayed = afterRestart.slice(0, afterRestart.indexOf(reconciled));
    expect(replayed.length).toBeGreaterThan(0);
    expect(replayed[0]?.sourceSeq).toBe(result3.sourceSeq + 1);
    for (const event of replayed) {
      const original = seenBeforeCrash.find((seen) => seen.sourceEventId === event.sourceEventId);
      if (original !== undefined) expect(event).toEqual(original);
    }
    const all = new Map<number, WireEvent>();
    for (const event of [...seenBeforeCrash, ...afterRestart]) all.set(event.sourceSeq, event);
    const seqs = [...all.keys()].sort((a, b) => a - b);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
    expect([...all.values()].filter((event) => event.eventType === "run.terminal")).toHaveLength(1);
    expect(afterRestart.at(-1)?.payload.reconciliation).toMatchObject({ reason: "runner_shutdown" });

    // A daemon started on a finished run resends the unacknowledged tail, says so, and leaves.
    const third = new Controller(args);
    // Its own reconciliation comes after the resent tail (which holds the previous one).
    const again = await third.waitFor((message) =>
      message.kind === "event" &&
      message.event.eventType === "runner.reconciled" &&
      message.event.payload.restarts === 2
        ? message.event
        : undefined,
    );
    expect(third.events().filter((event) => event.eventType === "run.terminal")).toHaveLength(1);
    expect(again.payload.terminal).toMatchObject({ reason: "runner_shutdown" });
    expect((await third.exited).code).toBe(0);
  });

  it("makes a command that was pending at the crash indeterminate, and never runs it again", async () => {
    const dir = tempDirForTest("runner-pending-");
    const stateDir = join(dir, "state");
    const log = join(dir, "commands.log");
    // The first daemon's harness never says ready, so run.prepare is still being applied when the
    // daemon dies (its ready timeout is 10 s away). The script is rewritten for the second daemon's harness.
    const script = writeScript(dir, { commandLog: log, steps: [{ sleep: 600_000 }] });
    const args = builtinHarnessArgs(script, ["--state-dir", stateDir]);

    const first = new Controller(args);
    first.send("run.prepare", "c1");
    await first.waitForEvent("harness.starting");
    first.kill("SIGKILL");
    await first.exited;
    expect((await stateFile(stateDir)).journal.c1?.status).toBe("pending");
    writeScript(dir, {
      commandLog: log,
      steps: [{ ready: {} }],
      on: {
        "session.open": [{ event: { eventType: "session.started", payload: { opened: "{{commandId}}" } } }],
      },
    });

    const second = new Controller(args);
    const reconciled = await second.waitForEvent("runner.reconciled");
    expect(reconciled.payload).toMatchObject({ indeterminateCommands: ["c1"], resumedSession: false });
    second.send("run.prepare", "c1", {}, 1);
    expect(await second.waitForReceipt("c1")).toMatchObject({
      status: "duplicate",
      original: {
        status: "indeterminate",
        detail: "command was in flight when the runner stopped; it is not executed again",
      },
    });
    // The controller decides to prepare the run again, as a new command; the old harness was not resumed.
    second.send("run.prepare", "c2", {}, 2);
    expect(await second.waitForReceipt("c2")).toMatchObject({ status: "accepted" });
    second.send("session.open", "c3", {}, 3);
    await second.waitForReceipt("c3");
    expect((await second.waitForEvent("session.started")).payload).toEqual({ opened: "c3" });
    second.send("runner.shutdown", "c4", {}, 4);
    await second.waitForEvent("run.terminal");
    expect((await second.exited).code).toBe(0);
    // runner.shutdown (c4) is forwarded before the harness is stopped, so the harness may or may
    // not log it before it exits; what matters is that c1 never ran and c3 ran once.
    const executed = commandLog(log).map((entry) => entry.commandId);
    expect(executed.filter((id) => id !== "c4")).toEqual(["c3"]);
    expect((await stateFile(stateDir)).journal.c1?.status).toBe("indeterminate");
  });
});
