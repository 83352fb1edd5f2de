import type { PrpEventType, PrpV2EventType } from "../events/index.js";

/** One PRP event the executor emits, with upstream's priority for it. */
export interface ProviderEvent {
  readonly eventType: PrpEventType | PrpV2EventType;
  readonly priority: 0 | 1 | 2;
  readonly payload: Record<string, unknown>;
  /** 2 for the session-goal event types PRP v2 added. */
  readonly schemaVersion?: 1 | 2;
}

export type TurnTerminalStatus = "completed" | "failed" | "cancelled" | "interrupted";

/** Pure: a PRP v1 event with its priority. */
export function providerEvent(
  eventType: PrpEventType,
  priority: 0 | 1 | 2,
  payload: Record<string, unknown>,
): ProviderEvent {
  return { eventType, priority, payload };
}
