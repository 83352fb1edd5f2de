import type { ProviderEvent } from "./codex-notification-events.js";
import type { SettlingTurn } from "./codex-provider-state.js";

/**
 * Pure: the events of a settling turn durable mode does not hold yet. Durable mode
 * commits engine events in seq order and records the last seq it committed, so the
 * events whose seq is past `lastCommittedSeq` are exactly those a kill lost.
 */
export function uncommittedSettlementEvents(
  settling: SettlingTurn,
  lastCommittedSeq: number,
): readonly ProviderEvent[] {
  return settling.events.slice(Math.max(0, lastCommittedSeq + 1 - settling.firstEventSeq));
}
