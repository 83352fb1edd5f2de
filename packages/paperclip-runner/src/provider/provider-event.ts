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

/**
 * Pure: `table`'s own entry for a key the provider chose; undefined for anything else
 * (`constructor`, `toString`… would otherwise read the prototype's functions).
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: unknown): T | undefined {
  return typeof key === "string" && Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * Pure: an id as upstream's runner forms one from a provider value (`stable_id`): each character
 * outside `[A-Za-z0-9._:-]` becomes `-`, at most 160 characters, and `fallback` when the result
 * does not start with a letter or digit (an empty value too).
 */
export function stableId(value: unknown, fallback: string): string {
  const text = typeof value === "string" ? value : "";
  const id = Array.from(text)
    .slice(0, 160)
    .map((character) => (/^[A-Za-z0-9._:-]$/.test(character) ? character : "-"))
    .join("");
  return /^[A-Za-z0-9]/.test(id) ? id : fallback;
}
