import { describe, expect, it } from "vitest";
import { executorEventId } from "./carried-startup-facts.js";
import { providerEvent } from "./provider-event.js";
import { heldAtStart, withHeldRecords } from "./saved-startup-facts.js";

const intent = providerEvent("harness.diagnostic", 0, {
  code: "provider_startup_ownership",
  phase: "intent",
});
const spawned = providerEvent("harness.diagnostic", 0, {
  code: "provider_startup_ownership",
  phase: "spawned",
});
const resumed = providerEvent("session.resumed", 0, { providerSessionId: "thread-1" });

describe("heldAtStart", () => {
  it("holds nothing, the facts, or the facts then session.resumed", () => {
    expect(heldAtStart("none", [intent, spawned], resumed)).toEqual([]);
    expect(heldAtStart("facts", [intent, spawned], resumed)).toEqual([intent, spawned]);
    expect(heldAtStart("facts-then-resumed", [intent, spawned], resumed)).toEqual([intent, spawned, resumed]);
  });
});

describe("withHeldRecords", () => {
  it("numbers the first held facts from 1 in a state saved before any was", () => {
    const saved = withHeldRecords({ pendingEvents: [] }, [intent, spawned]);
    expect(saved.pendingEvents.map((record) => record.executorEventId)).toEqual([
      executorEventId(1),
      executorEventId(2),
    ]);
    expect(saved.pendingEvents.map((record) => record.payload)).toEqual([intent.payload, spawned.payload]);
    expect(saved.nextProviderEventSeq).toBe(3);
  });

  it("saves a later start's facts behind the records listed, which keep their ids", () => {
    const first = withHeldRecords({ pendingEvents: [] }, [intent, spawned]);
    const second = withHeldRecords(first, [intent, spawned, resumed]);
    expect(second.pendingEvents.slice(0, 2)).toEqual(first.pendingEvents);
    expect(second.pendingEvents.map((record) => [record.executorEventId, record.eventType])).toEqual([
      [executorEventId(1), "harness.diagnostic"],
      [executorEventId(2), "harness.diagnostic"],
      [executorEventId(3), "harness.diagnostic"],
      [executorEventId(4), "harness.diagnostic"],
      [executorEventId(5), "session.resumed"],
    ]);
    expect(second.nextProviderEventSeq).toBe(6);
  });

  it("numbers on from nextProviderEventSeq when the records listed were committed and forgotten", () => {
    const saved = withHeldRecords({ pendingEvents: [], nextProviderEventSeq: 6 }, [intent]);
    expect(saved.pendingEvents.map((record) => record.executorEventId)).toEqual([executorEventId(6)]);
    expect(saved.nextProviderEventSeq).toBe(7);
  });
});
