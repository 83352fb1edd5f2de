import { describe, expect, it } from "vitest";
import type { JournalEntry } from "./journal-entry.js";
import { recoverRunnerState } from "./recover-runner-state.js";
import { initialRunnerState, type RunnerState } from "./runner-state.js";

const entry = (commandId: string, status: JournalEntry["status"]): JournalEntry => ({
  commandId,
  controllerSeq: 1,
  type: "session.open",
  fingerprint: "f",
  status,
  outcome: status === "done" ? { status: "accepted", detail: "command applied" } : null,
});

const base = initialRunnerState({ runId: "r", sessionId: "s", runnerId: "n" });
const running: RunnerState = {
  ...base,
  journal: { c2: entry("c2", "done"), c3: entry("c3", "done"), c4: entry("c4", "pending") },
  run: {
    ...base.run,
    prepared: true,
    phase: "turn_running",
    session: { commandId: "c2", payload: {} },
    turn: { commandId: "c3", turnId: "t3" },
    openRequests: ["r1"],
    stopIntent: "cancelled",
  },
};

describe("recoverRunnerState", () => {
  it("turns pending into indeterminate and drops what lived in the dead harness", () => {
    const recovery = recoverRunnerState(running);
    expect(recovery.indeterminate).toEqual(["c4"]);
    expect(recovery.state.journal.c4).toMatchObject({ status: "indeterminate", outcome: null });
    expect(recovery.state.journal.c2?.status).toBe("done");
    expect(recovery.abandonedTurn).toBe("c3");
    expect(recovery.abandonedRequests).toEqual(["r1"]);
    expect(recovery.state.run).toMatchObject({
      phase: "session_open",
      turn: null,
      openRequests: [],
      stopIntent: null,
    });
    expect(recovery.state.restarts).toBe(1);
  });

  it("does not reopen a session whose session.open was still pending", () => {
    const opening: RunnerState = {
      ...running,
      journal: { c2: entry("c2", "pending") },
      run: { ...running.run, phase: "session_open", turn: null, openRequests: [] },
    };
    const recovery = recoverRunnerState(opening);
    expect(recovery.state.run.session).toBeNull();
    expect(recovery.state.run.phase).toBe("prepared");
  });

  it("does not keep a run prepared whose run.prepare was still pending", () => {
    const preparing: RunnerState = {
      ...running,
      journal: { c1: entry("c1", "pending") },
      run: { ...running.run, phase: "preparing", session: null, turn: null, openRequests: [] },
    };
    const recovery = recoverRunnerState(preparing);
    expect(recovery.state.run).toMatchObject({ prepared: false, phase: "idle" });
  });

  it("turns a pending command whose id is __proto__ into an own indeterminate entry", () => {
    const journal = JSON.parse(
      JSON.stringify({ ["__proto__"]: entry("__proto__", "pending") }),
    ) as RunnerState["journal"];
    expect(Object.keys(journal)).toEqual(["__proto__"]);
    const recovery = recoverRunnerState({ ...running, journal });
    expect(recovery.indeterminate).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(recovery.state.journal, "__proto__")?.value).toMatchObject({
      status: "indeterminate",
    });
    expect(Object.getPrototypeOf(recovery.state.journal)).toBe(Object.prototype);
  });

  it("leaves a finished run as it was", () => {
    const finished: RunnerState = {
      ...running,
      journal: {},
      run: { ...running.run, phase: "finished", terminal: { reason: "run_cancelled", seq: 7 } },
    };
    const recovery = recoverRunnerState(finished);
    expect(recovery.state.run).toEqual(finished.run);
    expect(recovery.abandonedTurn).toBeNull();
  });
});
