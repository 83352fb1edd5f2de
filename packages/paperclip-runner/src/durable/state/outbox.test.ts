import { PaperclipError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { TEST_DURABLE_IDENTITY } from "../../../test/helpers/durable-identity.js";
import { type DurableState, initialDurableState, type OutboxEntry } from "./durable-state.js";
import { acknowledgeOutbox, appendToOutbox } from "./outbox.js";

const identity = TEST_DURABLE_IDENTITY;
const limits = { maxBytes: 1000, p0ReserveBytes: 200 };
const entry = (sourceSeq: number, bytes: number, priority: 0 | 1 | 2 = 1): OutboxEntry => ({
  sourceSeq,
  sourceEventId: `e${sourceSeq}`,
  eventType: "item.completed",
  priority,
  bytes,
  envelope: { seq: sourceSeq },
});

function fill(state: DurableState, ...entries: OutboxEntry[]): DurableState {
  return entries.reduce((next, item) => appendToOutbox(next, item, limits), state);
}

describe("the durable outbox", () => {
  it("numbers from 1, counts bytes, and is trimmed by cumulative acks that never go backwards", () => {
    let state = fill(initialDurableState(identity, "v", "d"), entry(1, 100), entry(2, 100), entry(3, 100));
    expect(state).toMatchObject({ nextSourceSeq: 4, outboxBytes: 300 });
    state = acknowledgeOutbox(state, 2);
    expect(state.outbox.map((item) => item.sourceSeq)).toEqual([3]);
    expect(state).toMatchObject({ ackedSourceSeq: 2, outboxBytes: 100 });
    expect(acknowledgeOutbox(state, 1).ackedSourceSeq).toBe(2);
    expect(acknowledgeOutbox(state, 99).ackedSourceSeq).toBe(3);
  });

  it("keeps the P0 reserve for priority-0 events: ERR_RUNNER_DURABLE_OUTBOX_FULL for others", () => {
    const state = fill(initialDurableState(identity, "v", "d"), entry(1, 700));
    let error: unknown;
    try {
      appendToOutbox(state, entry(2, 150, 1), limits);
    } catch (caught) {
      error = caught;
    }
    expect(PaperclipError.is(error, "ERR_RUNNER_DURABLE_OUTBOX_FULL")).toBe(true);
    expect((error as PaperclipError).message).toBe("durable outbox would exceed 800 bytes (normal)");
    const withTerminal = appendToOutbox(state, entry(2, 250, 0), limits);
    expect(withTerminal.outboxBytes).toBe(950);
    expect(() => appendToOutbox(withTerminal, entry(3, 100, 0), limits)).toThrow(
      "durable outbox would exceed 1000 bytes (reserve)",
    );
  });
});
