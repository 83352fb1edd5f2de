import { describe, expect, it } from "vitest";
import { liftHarnessEvent } from "./lift-harness-event.js";

describe("liftHarnessEvent", () => {
  it("lifts a harness event to the top level with the turn and item it names", () => {
    expect(
      liftHarnessEvent({ eventType: "item.started", turnId: "turn-1", itemId: "i1", payload: { text: "x" } }),
    ).toEqual({
      kind: "event",
      eventType: "item.started",
      payload: { text: "x" },
      turnId: "turn-1",
      itemId: "i1",
    });
    expect(liftHarnessEvent({ eventType: "session.started" })).toMatchObject({
      payload: {},
      turnId: null,
    });
  });

  it.each([
    [{}, "harness event requires eventType"],
    [{ eventType: "thinking" }, 'harness event type "thinking" is not a PRP event type'],
    [{ eventType: "run.terminal" }, "harness event type run.terminal is emitted by the runner only"],
    [{ eventType: "item.delta", payload: [] }, "harness event payload must be an object"],
    [
      { eventType: "item.delta", payload: { channel: "loud" } },
      "harness event payload.channel must be one of progress, final, summary, detail, unknown",
    ],
    [{ eventType: "item.delta", turnId: "" }, "harness event turnId must be a string of 1 to 240 characters"],
  ])("refuses %j", (event, reason) => {
    expect(liftHarnessEvent(event)).toEqual({ kind: "violation", reason });
  });

  it("does not forward an event whose payload upstream types in detail", () => {
    expect(liftHarnessEvent({ eventType: "plan.updated", payload: {} })).toMatchObject({
      kind: "not_forwarded",
    });
  });
});
