import { describe, expect, it } from "vitest";
import { eventPriority, isPrpEventType } from "./event-types.js";
import { buildPrpEvent, prpEventId } from "./prp-event.js";
import { receiptMessage, streamLine } from "./stream-envelope.js";

const source = { runId: "run-1", normalizedSessionId: "session-1", sourceInstanceId: "runner-1" };

describe("PRP events", () => {
  it("numbers ids as upstream does and keeps long run ids within the schema's 160 characters", () => {
    expect(prpEventId("run-1", 7)).toBe("event_run-1_007");
    expect(prpEventId("run-1", 1234)).toBe("event_run-1_1234");
    const long = prpEventId("r".repeat(160), 1);
    expect(long.length).toBeLessThanOrEqual(160);
    expect(long).toBe(prpEventId("r".repeat(160), 1));
    expect(long).not.toBe(prpEventId("s".repeat(160), 1));
  });

  it("builds an event with upstream's fields, optional ids only when present", () => {
    const event = buildPrpEvent(
      source,
      3,
      "item.delta",
      { text: "x" },
      { emittedAt: "2026-01-01T00:00:00.000Z", turnId: "t1", itemId: null },
    );
    expect(event).toEqual({
      schema: "paperclip.prp.event.v1",
      sourceEventId: "event_run-1_003",
      sourceSeq: 3,
      sourceInstanceId: "runner-1",
      sourceKind: "runner",
      runId: "run-1",
      normalizedSessionId: "session-1",
      eventType: "item.delta",
      schemaVersion: 1,
      priority: 2,
      emittedAt: "2026-01-01T00:00:00.000Z",
      payload: { text: "x" },
      turnId: "t1",
    });
  });

  it("gives the deciding events priority 0 and knows only the PRP enum", () => {
    expect(eventPriority("run.terminal")).toBe(0);
    expect(eventPriority("harness.exited")).toBe(0);
    expect(eventPriority("session.started")).toBe(1);
    expect(isPrpEventType("runner.started")).toBe(false);
    expect(isPrpEventType("runner.reconciled")).toBe(true);
  });

  it("wraps every message in the stream envelope", () => {
    expect(
      JSON.parse(
        streamLine(receiptMessage({ commandId: "c1", controllerSeq: 1 }, "accepted", "command applied")),
      ),
    ).toEqual({
      schema: "paperclip.runner.stream.v1",
      message: {
        kind: "command_receipt",
        commandId: "c1",
        controllerSeq: 1,
        status: "accepted",
        detail: "command applied",
      },
    });
  });
});
