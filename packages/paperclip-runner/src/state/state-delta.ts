import type { PrpEvent } from "../events/prp-event.js";
import { MAX_OUTBOX_EVENTS } from "./append-event.js";
import type { JournalEntry } from "./journal-entry.js";
import { setJournalEntry } from "./journal-lookup.js";
import type { RunnerState } from "./runner-state.js";

/** The fields a delta sets by value; `journal` and `outbox` change by entry and by event instead. */
const SCALAR_FIELDS = [
  "nextEventSeq",
  "ackedSeq",
  "lastControllerSeq",
  "run",
  "harness",
  "restarts",
] as const;
type ScalarField = (typeof SCALAR_FIELDS)[number];

/**
 * One journal record: what changed between two states the daemon committed.
 * Applying it is idempotent, so a record read twice cannot append an event twice.
 */
export interface StateDelta {
  readonly set: Partial<Pick<RunnerState, ScalarField>>;
  /** Journal entries that are new or changed. */
  readonly journal: readonly JournalEntry[];
  /** Events numbered since the base state (the outbox's new tail). */
  readonly events: readonly PrpEvent[];
}

/**
 * Pure: the delta from `base` to `next`, or null when nothing changed. Fields are
 * compared by reference (the ledger replaces what it changes); the outbox is
 * appended in place, so its new events are found by sequence number instead;
 * the journal is set in place too, so the entries set since `base` are given
 * (`journalSet`, in the order they were set): finding them by comparing a
 * journal of thousands of commands on every commit would make a run quadratic.
 */
export function stateDelta(
  base: RunnerState,
  next: RunnerState,
  journalSet: readonly JournalEntry[],
): StateDelta | null {
  const set: Partial<Record<ScalarField, unknown>> = {};
  let changed = false;
  for (const field of SCALAR_FIELDS) {
    if (next[field] !== base[field]) {
      set[field] = next[field];
      changed = true;
    }
  }
  const journal = latestPerCommand(journalSet);
  // The outbox is in seq order: its new events are its tail, found from the end.
  let from = next.outbox.length;
  while (from > 0 && (next.outbox[from - 1] as PrpEvent).sourceSeq >= base.nextEventSeq) from -= 1;
  const events = next.outbox.slice(from);
  if (!changed && journal.length === 0 && events.length === 0) return null;
  return { set: set as StateDelta["set"], journal, events };
}

/** The last entry set for each command (a command set `pending` then `done` in one commit records `done`). */
function latestPerCommand(entries: readonly JournalEntry[]): readonly JournalEntry[] {
  if (entries.length <= 1) return entries;
  const latest = new Map<string, JournalEntry>();
  for (const entry of entries) {
    latest.delete(entry.commandId);
    latest.set(entry.commandId, entry);
  }
  return [...latest.values()];
}

/**
 * Pure: `state` with `deltas` applied in order. The outbox keeps what
 * `appendEvent` and `acknowledgeEvents` keep in memory: the unacknowledged
 * events, the newest `MAX_OUTBOX_EVENTS` of them. The journal is copied once,
 * not once per record, so replaying a long journal stays linear.
 */
export function applyStateDeltas(state: RunnerState, deltas: readonly StateDelta[]): RunnerState {
  if (deltas.length === 0) return state;
  const journal: Record<string, JournalEntry> = { ...state.journal };
  const outbox = [...state.outbox];
  // Events up to here are numbered already: one read twice is not appended again.
  let lastSeq = state.nextEventSeq - 1;
  let next: RunnerState = state;
  for (const delta of deltas) {
    for (const event of delta.events) {
      if (event.sourceSeq <= lastSeq) continue;
      outbox.push(event);
      lastSeq = event.sourceSeq;
    }
    for (const entry of delta.journal) setJournalEntry(journal, entry);
    next = { ...next, ...delta.set };
  }
  const unacknowledged = outbox.filter((event) => event.sourceSeq > next.ackedSeq);
  return {
    ...next,
    journal,
    outbox: unacknowledged.slice(Math.max(0, unacknowledged.length - MAX_OUTBOX_EVENTS)),
  };
}
