import { corruptState, isObject } from "../state/parse-runner-state.js";
import type { ProviderEvent } from "./provider-event.js";

/**
 * A held startup fact a `runner.suspend` (or `runner.shutdown`) carried to the next run, in
 * `codex-provider-state.json` `pendingEvents`: upstream's record, its id numbered by the state's
 * `nextProviderEventSeq` (`schemaVersion` only for the goal events PRP v2 added).
 */
export interface PendingEventRecord {
  readonly executorEventId: string;
  readonly eventType: ProviderEvent["eventType"];
  readonly priority: "p0" | "p1" | "p2";
  readonly payload: Record<string, unknown>;
  readonly schemaVersion?: 1 | 2;
}

/** Pure: upstream's id for the provider event numbered `seq` (`codex_provider_` and 16 digits). */
export function executorEventId(seq: number): string {
  return `codex_provider_${String(seq).padStart(16, "0")}`;
}

/**
 * Pure: the records a suspend saves for the held `events`, whose first `carried.length` are the
 * records a previous run carried already (they keep their ids); the others are numbered from
 * `nextSeq`, as upstream numbers them.
 */
export function carriedRecords(
  carried: readonly PendingEventRecord[],
  events: readonly ProviderEvent[],
  nextSeq: number,
): { readonly pendingEvents: PendingEventRecord[]; readonly nextProviderEventSeq: number } {
  const fresh = events.slice(carried.length).map(
    (event, index): PendingEventRecord => ({
      executorEventId: executorEventId(nextSeq + index),
      eventType: event.eventType,
      priority: `p${event.priority}`,
      payload: event.payload,
      ...(event.schemaVersion === undefined ? {} : { schemaVersion: event.schemaVersion }),
    }),
  );
  return { pendingEvents: [...carried, ...fresh], nextProviderEventSeq: nextSeq + fresh.length };
}

/** Pure: the event a carried record stands for. */
export function recordEvent(record: PendingEventRecord): ProviderEvent {
  return {
    eventType: record.eventType,
    priority: Number(record.priority.slice(1)) as ProviderEvent["priority"],
    payload: record.payload,
    ...(record.schemaVersion === undefined ? {} : { schemaVersion: record.schemaVersion }),
  };
}

/**
 * Pure: the carried records durable mode does not hold yet. A release saves the engine seq the
 * first record takes (`releaseFirstSeq`) before committing them, then forgets them; a runner
 * killed in between left some or all committed, exactly those whose seq is at most
 * `lastCommittedSeq` (durable mode commits in seq order). Without a release under way, none is.
 */
export function uncommittedRecords(
  records: readonly PendingEventRecord[],
  releaseFirstSeq: number | null,
  lastCommittedSeq: number,
): PendingEventRecord[] {
  if (releaseFirstSeq === null) return [...records];
  return records.slice(Math.max(0, lastCommittedSeq + 1 - releaseFirstSeq));
}

const EXECUTOR_EVENT_ID = /^codex_provider_\d{16}$/;
const PRIORITIES: ReadonlySet<unknown> = new Set(["p0", "p1", "p2"]);

/**
 * Pure: the `pendingEvents` a saved provider state lists, each checked to be upstream's record
 * (they are committed as they stand by the next run); `ERR_RUNNER_STATE_CORRUPT` names the first
 * that is not. Absent in a state saved before records were kept: none.
 */
export function readPendingEvents(value: unknown): PendingEventRecord[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw corruptState("codex-provider-state.json pendingEvents is not a list");
  return value.map((record: unknown, index) => {
    const valid =
      isObject(record) &&
      typeof record.executorEventId === "string" &&
      EXECUTOR_EVENT_ID.test(record.executorEventId) &&
      typeof record.eventType === "string" &&
      PRIORITIES.has(record.priority) &&
      isObject(record.payload) &&
      (record.schemaVersion === undefined || record.schemaVersion === 1 || record.schemaVersion === 2);
    if (!valid)
      throw corruptState(`codex-provider-state.json pendingEvents[${index}] is not an event record`);
    return record as unknown as PendingEventRecord;
  });
}

function isPositiveSeq(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

/**
 * Pure: the record counters a previous runner saved beside `pendingEvents`: `nextProviderEventSeq`
 * a positive integer (1 in a state saved before records were kept), `pendingEventsReleaseFirstSeq`
 * one or null. Any other value would renumber records or commit them again, so
 * `ERR_RUNNER_STATE_CORRUPT` names it.
 */
export function readRecordCounters(state: {
  readonly nextProviderEventSeq?: unknown;
  readonly pendingEventsReleaseFirstSeq?: unknown;
}): { readonly nextProviderEventSeq: number; readonly pendingEventsReleaseFirstSeq: number | null } {
  const { nextProviderEventSeq = 1, pendingEventsReleaseFirstSeq = null } = state;
  if (!isPositiveSeq(nextProviderEventSeq))
    throw corruptState("codex-provider-state.json nextProviderEventSeq is not a positive integer");
  if (pendingEventsReleaseFirstSeq !== null && !isPositiveSeq(pendingEventsReleaseFirstSeq))
    throw corruptState("codex-provider-state.json pendingEventsReleaseFirstSeq is not a positive integer");
  return { nextProviderEventSeq, pendingEventsReleaseFirstSeq };
}
