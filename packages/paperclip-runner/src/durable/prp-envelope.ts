import { createHash } from "node:crypto";
import { type DurableIdentity, identityFields } from "./durable-identity.js";
import type { EventPriority } from "./durable-state.js";
import { PRP_PROTOCOL } from "./handshake.js";

/** What an event is, before durable mode numbers it. */
export interface DurableEventKind {
  readonly eventType: string;
  readonly payload: Record<string, unknown>;
  /** Taken once when the event was first produced, never per send. */
  readonly emittedAt: string;
}

const PRIORITY_0 = new Set([
  "run.result.proposed",
  "run.terminal",
  "turn.completed",
  "turn.failed",
  "harness.exited",
  "runner.reconciled",
]);
const PRIORITY_2 = new Set(["item.delta", "harness.diagnostic", "runner.diagnostic"]);

export function priorityOf(eventType: string): EventPriority {
  if (PRIORITY_0.has(eventType)) return 0;
  if (PRIORITY_2.has(eventType)) return 2;
  return 1;
}

/** `event_${seq}_${digest of the run identity}`: unique per run, stable, within the schema's 160 characters. */
export function sourceEventId(identity: DurableIdentity, sourceSeq: number): string {
  const digest = createHash("sha256")
    .update(JSON.stringify(identityFields(identity)))
    .digest("hex")
    .slice(0, 24);
  return `event_${sourceSeq}_${digest}`;
}

/**
 * Pure: the whole `event` message for seq `sourceSeq`. It holds nothing that
 * changes per send (no connection id, no send time), so a resend after a
 * reconnect or a restart is byte-identical, as the server requires.
 */
export function eventEnvelope(
  identity: DurableIdentity,
  version: number,
  sourceSeq: number,
  event: DurableEventKind,
): Record<string, unknown> {
  return {
    protocol: PRP_PROTOCOL,
    version,
    kind: "event",
    ...identityFields(identity),
    payload: {
      schema: "paperclip.prp.event.v1",
      sourceEventId: sourceEventId(identity, sourceSeq),
      sourceSeq,
      sourceInstanceId: identity.runnerInstanceId,
      sourceKind: "runner",
      runId: identity.runId,
      normalizedSessionId: identity.normalizedSessionId,
      turnId: identity.turnId,
      itemId: identity.itemId,
      eventType: event.eventType,
      schemaVersion: 1,
      priority: priorityOf(event.eventType),
      emittedAt: event.emittedAt,
      payload: event.payload,
    },
  };
}

/** A control message from the runner (`command_result`), its identity at the top level like every envelope. */
export function controlEnvelope(
  identity: DurableIdentity,
  version: number,
  kind: string,
  payload: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { protocol: PRP_PROTOCOL, version, kind, ...identityFields(identity), ...extra, payload };
}
