import { buildPrpEvent, type PrpEvent, type PrpEventType } from "../events/index.js";
import type { RunnerState } from "./runner-state.js";

/**
 * Unacknowledged events kept for replay after a restart. Past this, the oldest
 * are dropped: a controller that never acknowledges must not grow the state file
 * without bound (a restarted daemon then resends only the newest).
 */
export const MAX_OUTBOX_EVENTS = 4096;

export interface EventPlacement {
  readonly turnId?: string | null | undefined;
  readonly itemId?: string | null | undefined;
}

/**
 * Numbers the next PRP event and appends it to the outbox. The outbox array is
 * appended in place (the returned state shares it): copying it for every event
 * would make a burst of harness output quadratic.
 */
export function appendEvent(
  state: RunnerState,
  eventType: PrpEventType,
  payload: Record<string, unknown>,
  emittedAt: string,
  placement: EventPlacement = {},
): { readonly state: RunnerState; readonly event: PrpEvent } {
  const { runId, sessionId, runnerId } = state.binding;
  const seq = state.nextEventSeq;
  const event = buildPrpEvent(
    { runId, normalizedSessionId: sessionId, sourceInstanceId: runnerId },
    seq,
    eventType,
    payload,
    { emittedAt, turnId: placement.turnId, itemId: placement.itemId },
  );
  state.outbox.push(event);
  if (state.outbox.length > MAX_OUTBOX_EVENTS) state.outbox.shift();
  return { state: { ...state, nextEventSeq: seq + 1 }, event };
}

/** Pure: the controller has every event up to `throughSeq`; they leave the outbox. Acks never go backwards. */
export function acknowledgeEvents(state: RunnerState, throughSeq: number): RunnerState {
  const acked = Math.min(Math.max(state.ackedSeq, throughSeq), state.nextEventSeq - 1);
  if (acked === state.ackedSeq) return state;
  return { ...state, ackedSeq: acked, outbox: state.outbox.filter((event) => event.sourceSeq > acked) };
}
