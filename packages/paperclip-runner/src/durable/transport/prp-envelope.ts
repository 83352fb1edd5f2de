import {
  buildPrpEvent,
  isPrpEventType,
  type PrpEvent,
  type PrpEventType,
  type PrpV2EventType,
} from "../../events/index.js";
import { type DurableIdentity, identityFields } from "../durable-identity.js";
import { PRP_PROTOCOL } from "./prp-versions.js";

/** What an event is, before durable mode numbers it. */
export interface DurableEventKind {
  readonly eventType: PrpEventType | PrpV2EventType;
  readonly payload: Record<string, unknown>;
  /** Taken once when the event was first produced, never per send. */
  readonly emittedAt: string;
  /** A provider executor's own priority for the event (upstream's mapping); by type otherwise. */
  readonly priority?: 0 | 1 | 2;
  /** 2 for the event types PRP v2 added (session goals); 1 otherwise. */
  readonly schemaVersion?: 1 | 2;
}

export { isPrpEventType };

/**
 * Pure: the PRP event of seq `sourceSeq`, bound to the run identity the server
 * admits (every event carries the launcher's turn and item ids).
 */
export function durablePrpEvent(
  identity: DurableIdentity,
  sourceSeq: number,
  event: DurableEventKind,
): PrpEvent {
  return buildPrpEvent(
    {
      runId: identity.runId,
      normalizedSessionId: identity.normalizedSessionId,
      sourceInstanceId: identity.runnerInstanceId,
    },
    sourceSeq,
    event.eventType,
    event.payload,
    {
      emittedAt: event.emittedAt,
      turnId: identity.turnId,
      itemId: identity.itemId,
      priority: event.priority,
      schemaVersion: event.schemaVersion,
    },
  );
}

/**
 * Pure: the whole `event` message for one PRP event. It holds nothing that
 * changes per send (no connection id, no send time), so a resend after a
 * reconnect or a restart is byte-identical, as the server requires.
 */
export function eventEnvelope(
  identity: DurableIdentity,
  version: number,
  event: PrpEvent,
): Record<string, unknown> {
  return { protocol: PRP_PROTOCOL, version, kind: "event", ...identityFields(identity), payload: event };
}

/**
 * Pure: an outbox entry's `event` message as it goes out on a connection of PRP `version`. An
 * event made while no connection was up was wrapped in the version the runner offers first; the
 * server admits a frame only in its lease's version (it closes the connection on any other,
 * committing nothing), so a message in another version was never committed and takes the
 * connection's. Every connection of a run shares that version, so each send of an event is the
 * same message, as the server's replay check requires.
 */
export function inConnectionVersion(
  envelope: Record<string, unknown>,
  version: number,
): Record<string, unknown> {
  return envelope.version === version ? envelope : { ...envelope, version };
}

/** A control message from the runner (`command_result`, `lease_renew`), its identity at the top level like every envelope. */
export function controlEnvelope(
  identity: DurableIdentity,
  version: number,
  kind: string,
  payload: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { protocol: PRP_PROTOCOL, version, kind, ...identityFields(identity), ...extra, payload };
}
