import { describe, expect, it } from "vitest";
import {
  carriedRecords,
  executorEventId,
  type PendingEventRecord,
  readPendingEvents,
  readRecordCounters,
  recordEvent,
  uncommittedRecords,
} from "./carried-startup-facts.js";
import { providerEvent } from "./provider-event.js";

const intent = providerEvent("harness.diagnostic", 0, {
  code: "provider_startup_ownership",
  phase: "intent",
});
const spawned = providerEvent("harness.diagnostic", 0, {
  code: "provider_startup_ownership",
  phase: "spawned",
});
const resumed = providerEvent("session.resumed", 0, { providerSessionId: "thread-1" });

describe("carriedRecords", () => {
  it("numbers held facts as upstream's records, from nextProviderEventSeq", () => {
    expect(executorEventId(12)).toBe("codex_provider_0000000000000012");
    expect(carriedRecords([], [intent, spawned], 1)).toEqual({
      pendingEvents: [
        {
          executorEventId: "codex_provider_0000000000000001",
          eventType: "harness.diagnostic",
          priority: "p0",
          payload: intent.payload,
        },
        {
          executorEventId: "codex_provider_0000000000000002",
          eventType: "harness.diagnostic",
          priority: "p0",
          payload: spawned.payload,
        },
      ],
      nextProviderEventSeq: 3,
    });
  });

  it("keeps the ids of records carried before and numbers only the facts after them", () => {
    const first = carriedRecords([], [intent, spawned], 1);
    const second = carriedRecords(first.pendingEvents, [...first.pendingEvents.map(recordEvent), resumed], 3);
    expect(second.pendingEvents.map((record) => record.executorEventId)).toEqual([
      executorEventId(1),
      executorEventId(2),
      executorEventId(3),
    ]);
    expect(second.pendingEvents[2]).toMatchObject({ eventType: "session.resumed", payload: resumed.payload });
    expect(second.nextProviderEventSeq).toBe(4);
  });

  it("gives back the event a record stands for, a goal event's schema version with it", () => {
    const goal = { ...providerEvent("harness.diagnostic", 1, { code: "x" }), schemaVersion: 2 as const };
    const [record] = carriedRecords([], [goal], 7).pendingEvents as [PendingEventRecord];
    expect(record.priority).toBe("p1");
    expect(recordEvent(record)).toEqual(goal);
  });
});

describe("uncommittedRecords", () => {
  const records = carriedRecords([], [intent, spawned, resumed], 1).pendingEvents;

  it("keeps every record when no commit of them was under way", () => {
    expect(uncommittedRecords(records, null, 40)).toEqual(records);
  });

  it("drops exactly those a killed release left committed (their seqs up to the last committed)", () => {
    expect(uncommittedRecords(records, 10, 9)).toEqual(records);
    expect(uncommittedRecords(records, 10, 11)).toEqual(records.slice(2));
    expect(uncommittedRecords(records, 10, 12)).toEqual([]);
    expect(uncommittedRecords(records, 10, 30)).toEqual([]);
  });
});

describe("readPendingEvents", () => {
  const records = carriedRecords([], [intent, resumed], 1).pendingEvents;

  it("reads upstream's records as saved, none when the state has no list", () => {
    expect(readPendingEvents(JSON.parse(JSON.stringify(records)))).toEqual(records);
    expect(readPendingEvents(undefined)).toEqual([]);
  });

  it("refuses a list with a record that is not one, naming it, with ERR_RUNNER_STATE_CORRUPT", () => {
    const [first] = records as [PendingEventRecord];
    const broken: unknown[] = [
      { ...first, executorEventId: "codex_provider_1" },
      { ...first, priority: "p9" },
      { ...first, payload: ["not", "an", "object"] },
      { ...first, eventType: 7 },
      { ...first, schemaVersion: 3 },
      "session.started",
    ];
    for (const record of broken) {
      const read = () => readPendingEvents([first, record]);
      expect(read).toThrow(expect.objectContaining({ code: "ERR_RUNNER_STATE_CORRUPT" }));
      expect(read).toThrow("pendingEvents[1] is not an event record");
    }
    expect(() => readPendingEvents({ 0: first })).toThrow("pendingEvents is not a list");
  });
});

describe("readRecordCounters", () => {
  it("reads the counters, 1 and null where a state saved before records were kept has none", () => {
    expect(readRecordCounters({})).toEqual({ nextProviderEventSeq: 1, pendingEventsReleaseFirstSeq: null });
    expect(readRecordCounters({ nextProviderEventSeq: 6, pendingEventsReleaseFirstSeq: 12 })).toEqual({
      nextProviderEventSeq: 6,
      pendingEventsReleaseFirstSeq: 12,
    });
  });

  it("refuses a counter that would renumber records or commit them again", () => {
    for (const nextProviderEventSeq of [0, -1, 1.5, "3", null, Number.NaN, 2 ** 60]) {
      const read = () => readRecordCounters({ nextProviderEventSeq });
      expect(read).toThrow(expect.objectContaining({ code: "ERR_RUNNER_STATE_CORRUPT" }));
      expect(read).toThrow("nextProviderEventSeq is not a positive integer");
    }
    for (const pendingEventsReleaseFirstSeq of [0, 2.5, "7", Number.NaN]) {
      const read = () => readRecordCounters({ pendingEventsReleaseFirstSeq });
      expect(read).toThrow("pendingEventsReleaseFirstSeq is not a positive integer");
    }
  });
});
