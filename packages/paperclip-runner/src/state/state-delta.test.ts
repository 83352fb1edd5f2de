import { describe, expect, it } from "vitest";
import { acknowledgeEvents, appendEvent, MAX_OUTBOX_EVENTS } from "./append-event.js";
import { withJournalEntry } from "./journal-lookup.js";
import { initialRunnerState, type RunnerState } from "./runner-state.js";
import { applyStateDeltas, type StateDelta, stateDelta } from "./state-delta.js";

const base = initialRunnerState({ runId: "r", sessionId: "s", runnerId: "n" });
const entry = (commandId: string, status: "pending" | "done") => ({
  commandId,
  controllerSeq: 1,
  type: "turn.start",
  fingerprint: "f",
  status,
  outcome: status === "done" ? ({ status: "accepted", detail: "command applied" } as const) : null,
});

/** `state` with `count` more events; the outbox is copied first, since `appendEvent` appends in place. */
function emitted(state: RunnerState, count: number): RunnerState {
  let next: RunnerState = { ...state, outbox: [...state.outbox] };
  for (let index = 0; index < count; index += 1)
    next = appendEvent(next, "item.delta", { index }, "2026-12-02T00:00:00.000Z").state;
  return next;
}

describe("stateDelta and applyStateDeltas", () => {
  it("is null when nothing changed", () => {
    expect(stateDelta(base, base, [])).toBeNull();
  });

  it("carries only the changed fields, entries and new events, and replays to the same state", () => {
    const first = emitted({ ...base, journal: withJournalEntry(base.journal, entry("c1", "pending")) }, 2);
    const second = emitted(
      {
        ...first,
        lastControllerSeq: 3,
        journal: withJournalEntry(first.journal, entry("c1", "done")),
        run: { ...first.run, phase: "turn_running" },
      },
      1,
    );
    const delta = stateDelta(first, second, [entry("c1", "done")]) as StateDelta;
    expect(Object.keys(delta.set).sort()).toEqual(["lastControllerSeq", "nextEventSeq", "run"]);
    expect(delta.journal).toEqual([entry("c1", "done")]);
    expect(delta.events.map((event) => event.sourceSeq)).toEqual([3]);
    const deltas = [stateDelta(base, first, [entry("c1", "pending")]) as StateDelta, delta];
    expect(applyStateDeltas(base, deltas)).toEqual(second);
  });

  it("records a command set twice in one commit once, as last set", () => {
    const next = { ...base, lastControllerSeq: 1 };
    const delta = stateDelta(base, next, [
      entry("c1", "pending"),
      entry("c2", "pending"),
      entry("c1", "done"),
    ]);
    expect(delta?.journal).toEqual([entry("c2", "pending"), entry("c1", "done")]);
  });

  it("is idempotent: a record applied twice appends no event twice", () => {
    const next = emitted(base, 3);
    const delta = stateDelta(base, next, []) as StateDelta;
    expect(applyStateDeltas(base, [delta, delta])).toEqual(next);
  });

  it("keeps the outbox as memory does: acknowledged events leave, the newest MAX_OUTBOX_EVENTS stay", () => {
    const many = emitted(base, MAX_OUTBOX_EVENTS + 10);
    expect(applyStateDeltas(base, [stateDelta(base, many, []) as StateDelta])).toEqual(many);
    const acknowledged = acknowledgeEvents(many, 4100);
    const replayed = applyStateDeltas(base, [
      stateDelta(base, many, []) as StateDelta,
      stateDelta(many, acknowledged, []) as StateDelta,
    ]);
    expect(replayed).toEqual(acknowledged);
    expect(replayed.outbox[0]?.sourceSeq).toBe(4101);
  });

  it("sets a journal entry named __proto__ as an own entry", () => {
    const next = { ...base, journal: withJournalEntry(base.journal, entry("__proto__", "pending")) };
    const replayed = applyStateDeltas(base, [
      stateDelta(base, next, [entry("__proto__", "pending")]) as StateDelta,
    ]);
    expect(Object.hasOwn(replayed.journal, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(replayed.journal)).toBe(Object.prototype);
  });
});
