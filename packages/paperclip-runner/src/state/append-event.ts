import { eventId, type RunnerEvent, type RunnerEventType } from "../protocol/runner-event.js";
import { EVENT_SCHEMA } from "../protocol/schemas.js";
import type { RunnerState } from "./runner-state.js";

/**
 * Unacknowledged events kept for replay after a restart. Past this, the oldest
 * are dropped: a controller that never acknowledges must not grow the state file
 * without bound (a restarted daemon then resends only the newest).
 */
export const MAX_OUTBOX_EVENTS = 4096;

/**
 * Numbers the next event and appends it to the outbox. The outbox array is
 * appended in place (the returned state shares it): copying it for every event
 * would make a burst of harness output quadratic.
 */
export function appendEvent(
  state: RunnerState,
  type: RunnerEventType,
  data: Record<string, unknown>,
  emittedAt: string,
): { readonly state: RunnerState; readonly event: RunnerEvent } {
  const { runId, sessionId, runnerId } = state.binding;
  const seq = state.nextEventSeq;
  const event: RunnerEvent = {
    schema: EVENT_SCHEMA,
    id: eventId(runId, seq),
    runId,
    sessionId,
    runnerId,
    seq,
    type,
    emittedAt,
    data,
  };
  state.outbox.push(event);
  if (state.outbox.length > MAX_OUTBOX_EVENTS) state.outbox.shift();
  return { state: { ...state, nextEventSeq: seq + 1 }, event };
}

/** Pure: the controller has every event up to `throughSeq`; they leave the outbox. Acks never go backwards. */
export function acknowledgeEvents(state: RunnerState, throughSeq: number): RunnerState {
  const acked = Math.min(Math.max(state.ackedSeq, throughSeq), state.nextEventSeq - 1);
  if (acked === state.ackedSeq) return state;
  return { ...state, ackedSeq: acked, outbox: state.outbox.filter((event) => event.seq > acked) };
}
