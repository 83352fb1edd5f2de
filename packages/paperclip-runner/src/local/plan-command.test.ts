import { describe, expect, it } from "vitest";
import { planCommand } from "./plan-command.js";
import { INITIAL_RUN_FACTS, type RunFacts } from "./run-facts.js";

const prepared: RunFacts = { ...INITIAL_RUN_FACTS, prepared: true, phase: "prepared" };
const open: RunFacts = { ...prepared, phase: "session_open", session: { commandId: "c2", payload: {} } };
const turning: RunFacts = {
  ...open,
  phase: "turn_running",
  turn: { commandId: "c3", turnId: "t1" },
  openRequests: ["r1"],
};

describe("planCommand", () => {
  it("walks prepare, open, turn", () => {
    expect(planCommand(INITIAL_RUN_FACTS, "run.prepare", {})).toEqual({ kind: "prepare" });
    expect(planCommand(prepared, "session.open", {})).toEqual({ kind: "open_session" });
    expect(planCommand(open, "turn.start", { turnId: "t1" })).toEqual({ kind: "start_turn", turnId: "t1" });
    expect(planCommand(open, "turn.start", {})).toEqual({ kind: "start_turn", turnId: null });
    expect(planCommand(turning, "turn.interrupt", {})).toEqual({ kind: "interrupt" });
    expect(planCommand(turning, "turn.stop", {})).toEqual({ kind: "interrupt" });
    expect(planCommand(turning, "request.resolve", { requestId: "r1" })).toEqual({
      kind: "resolve_request",
      requestId: "r1",
    });
    expect(planCommand(open, "session.close", {})).toEqual({ kind: "close_session" });
  });

  it.each([
    ["prepared", prepared, "run.prepare", {}, "run is already prepared"],
    ["idle", INITIAL_RUN_FACTS, "session.open", {}, "run is not prepared"],
    [
      "preparing",
      { ...prepared, phase: "preparing" } as RunFacts,
      "session.open",
      {},
      "run is being prepared",
    ],
    ["open", open, "session.open", {}, "session is already open"],
    ["prepared", prepared, "turn.start", {}, "session is not open"],
    [
      "open",
      open,
      "turn.start",
      { turnId: 7 },
      "invalid command: payload.turnId must be a string of 1 to 240 characters",
    ],
    ["turning", turning, "turn.start", {}, "a turn is already running"],
    ["open", open, "turn.interrupt", {}, "no turn is running"],
    ["prepared", prepared, "session.close", {}, "session is not open"],
    [
      "turning",
      turning,
      "request.resolve",
      {},
      "invalid command: payload.requestId must be a non-empty string",
    ],
    ["turning", turning, "request.resolve", { requestId: "r2" }, "unknown request r2"],
    ["open", open, "workspace.sync", {}, "command workspace.sync is not implemented in Local runner"],
  ])("refuses in %s: %s %o", (_label, facts, type, payload, detail) => {
    expect(planCommand(facts, type, payload)).toEqual({ kind: "reject", detail });
  });

  it("cancels and shuts down from any live phase", () => {
    for (const facts of [INITIAL_RUN_FACTS, prepared, open, turning]) {
      expect(planCommand(facts, "run.cancel", {})).toEqual({ kind: "stop", intent: "cancelled" });
      expect(planCommand(facts, "runner.shutdown", {})).toEqual({ kind: "stop", intent: "runner_shutdown" });
    }
  });

  it("while stopping only runner.shutdown is taken; after the terminal nothing is", () => {
    const stopping: RunFacts = { ...turning, stopIntent: "cancelled", phase: "stopping" };
    expect(planCommand(stopping, "turn.start", {})).toEqual({ kind: "reject", detail: "run is stopping" });
    expect(planCommand(stopping, "runner.shutdown", {})).toEqual({ kind: "stop", intent: "runner_shutdown" });
    const finished: RunFacts = { ...open, phase: "finished", terminal: { reason: "run_cancelled", seq: 9 } };
    expect(planCommand(finished, "runner.shutdown", {})).toEqual({
      kind: "reject",
      detail: "run has already finished",
    });
  });
});
