import { createHash } from "node:crypto";
import { eventPriority, type PrpEventType, type PrpV2EventType } from "./event-types.js";

export const PRP_EVENT_SCHEMA = "paperclip.prp.event.v1";
/** The envelope schema of the event types PRP v2 added (`schemaVersion: 2`). */
export const PRP_EVENT_V2_SCHEMA = "paperclip.prp.event.v2";

/** Upstream's schema bounds on identifiers. */
export const PRP_ID_MAX_LENGTH = 160;
export const PRP_TURN_ID_MAX_LENGTH = 240;

/** Who emits the events: one runner instance serving one run's session. */
export interface PrpSource {
  readonly runId: string;
  readonly normalizedSessionId: string;
  /** The runner instance (`--runner-id`). */
  readonly sourceInstanceId: string;
}

/** One `paperclip.prp.event.v1`. Immutable once built: a resend is this same object, byte for byte. */
export interface PrpEvent {
  readonly schema: typeof PRP_EVENT_SCHEMA | typeof PRP_EVENT_V2_SCHEMA;
  readonly sourceEventId: string;
  readonly sourceSeq: number;
  readonly sourceInstanceId: string;
  readonly sourceKind: "runner";
  readonly runId: string;
  readonly normalizedSessionId: string;
  readonly eventType: PrpEventType | PrpV2EventType;
  /** 2 only for the event types PRP v2 added (a provider's session goals). */
  readonly schemaVersion: 1 | 2;
  readonly priority: 0 | 1 | 2;
  readonly emittedAt: string;
  readonly payload: Record<string, unknown>;
  readonly turnId?: string;
  readonly itemId?: string;
}

export interface PrpEventOptions {
  /** ISO 8601; taken once, when the event is first built, never per send. */
  readonly emittedAt: string;
  readonly turnId?: string | null | undefined;
  readonly itemId?: string | null | undefined;
  /** Overrides the priority of the event's type (a provider executor's own mapping). */
  readonly priority?: 0 | 1 | 2 | undefined;
  readonly schemaVersion?: 1 | 2 | undefined;
}

/**
 * `event_${runId}_${seq}` with the seq zero-padded to three digits, as upstream
 * numbers its events. A run id long enough to push the id past the schema's 160
 * characters is replaced by a digest of itself, so the id stays valid and stable.
 */
export function prpEventId(runId: string, sourceSeq: number): string {
  const seq = String(sourceSeq).padStart(3, "0");
  const plain = `event_${runId}_${seq}`;
  if (plain.length <= PRP_ID_MAX_LENGTH) return plain;
  const digest = createHash("sha256").update(runId, "utf8").digest("hex").slice(0, 32);
  return `event_sha256-${digest}_${seq}`;
}

/** Pure: the event with sequence number `sourceSeq` (contiguous from 1 for the run). */
export function buildPrpEvent(
  source: PrpSource,
  sourceSeq: number,
  eventType: PrpEventType | PrpV2EventType,
  payload: Record<string, unknown>,
  options: PrpEventOptions,
): PrpEvent {
  return {
    schema: options.schemaVersion === 2 ? PRP_EVENT_V2_SCHEMA : PRP_EVENT_SCHEMA,
    sourceEventId: prpEventId(source.runId, sourceSeq),
    sourceSeq,
    sourceInstanceId: source.sourceInstanceId,
    sourceKind: "runner",
    runId: source.runId,
    normalizedSessionId: source.normalizedSessionId,
    eventType,
    schemaVersion: options.schemaVersion ?? 1,
    priority: options.priority ?? eventPriority(eventType),
    emittedAt: options.emittedAt,
    payload,
    ...(options.turnId ? { turnId: options.turnId } : {}),
    ...(options.itemId ? { itemId: options.itemId } : {}),
  };
}
