import { RunnerError } from "@paperclipai/errors";
import type { DurableState, OutboxEntry } from "./durable-state.js";

export interface OutboxLimits {
  /** Every unacknowledged event together. */
  readonly maxBytes: number;
  /** The top of `maxBytes` that only priority-0 events may use, so a run can always report its end. */
  readonly p0ReserveBytes: number;
}

/**
 * Pure: the state with `entry` appended, or `ERR_RUNNER_DURABLE_OUTBOX_FULL`.
 * Priority 1 and 2 events fit below `maxBytes - p0ReserveBytes`; priority 0
 * events may use the reserve.
 */
export function appendToOutbox(state: DurableState, entry: OutboxEntry, limits: OutboxLimits): DurableState {
  const limit = entry.priority === 0 ? limits.maxBytes : limits.maxBytes - limits.p0ReserveBytes;
  if (state.outboxBytes + entry.bytes > limit) {
    throw new RunnerError(
      "ERR_RUNNER_DURABLE_OUTBOX_FULL",
      `durable outbox would exceed ${limit} bytes (${entry.priority === 0 ? "reserve" : "normal"})`,
      {
        details: {
          limit,
          kind: entry.priority === 0 ? "reserve" : "normal",
          outboxBytes: state.outboxBytes,
          eventBytes: entry.bytes,
        },
      },
    );
  }
  return {
    ...state,
    nextSourceSeq: entry.sourceSeq + 1,
    outbox: [...state.outbox, entry],
    outboxBytes: state.outboxBytes + entry.bytes,
  };
}

/** Pure: the server has committed every event through `ackedSourceSeq` (cumulative; never backwards, never past what was sent). */
export function acknowledgeOutbox(state: DurableState, ackedSourceSeq: number): DurableState {
  const acked = Math.min(Math.max(state.ackedSourceSeq, ackedSourceSeq), state.nextSourceSeq - 1);
  if (acked === state.ackedSourceSeq) return state;
  const outbox = state.outbox.filter((entry) => entry.sourceSeq > acked);
  return {
    ...state,
    ackedSourceSeq: acked,
    outbox,
    outboxBytes: outbox.reduce((total, entry) => total + entry.bytes, 0),
  };
}
