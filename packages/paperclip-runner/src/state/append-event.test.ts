import { describe, expect, it } from "vitest";
import { acknowledgeEvents, appendEvent, MAX_OUTBOX_EVENTS } from "./append-event.js";
import { initialRunnerState, type RunnerState } from "./runner-state.js";

const at = "2026-01-01T00:00:00.000Z";

function withEvents(count: number): RunnerState {
  let state = initialRunnerState({ runId: "run-9", sessionId: "s", runnerId: "n" });
  for (let index = 0; index < count; index += 1)
    state = appendEvent(state, "item.delta", { index }, at).state;
  return state;
}

describe("appendEvent / acknowledgeEvents", () => {
  it("numbers events contiguously from 1 with ids from the run id", () => {
    const state = withEvents(3);
    expect(state.outbox.map((event) => [event.sourceSeq, event.sourceEventId])).toEqual([
      [1, "event_run-9_001"],
      [2, "event_run-9_002"],
      [3, "event_run-9_003"],
    ]);
    expect(state.nextEventSeq).toBe(4);
  });

  it("drops acknowledged events, never goes backwards and never past what was emitted", () => {
    const state = acknowledgeEvents(withEvents(5), 3);
    expect(state.outbox.map((event) => event.sourceSeq)).toEqual([4, 5]);
    expect(acknowledgeEvents(state, 1).ackedSeq).toBe(3);
    expect(acknowledgeEvents(state, 99).ackedSeq).toBe(5);
  });

  it("bounds the outbox", () => {
    const state = withEvents(MAX_OUTBOX_EVENTS + 10);
    expect(state.outbox).toHaveLength(MAX_OUTBOX_EVENTS);
    expect(state.outbox[0]?.sourceSeq).toBe(11);
  });
});
