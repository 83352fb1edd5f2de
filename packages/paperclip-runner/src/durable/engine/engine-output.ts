import { isPrpEventType, RUNNER_STREAM_SCHEMA, type StreamEnvelope } from "../../events/index.js";
import type { DurableEventKind } from "../transport/prp-envelope.js";

/** One line of the engine's output (local mode's `paperclip.runner.stream.v1`), as durable mode uses it. */
export type EngineOutput =
  | {
      readonly kind: "event";
      /** The engine's own contiguous numbering; a restarted engine resends the events it has no ack for. */
      readonly engineSeq: number;
      readonly event: DurableEventKind;
      /** On the engine's `runner.reconciled`: the last controllerSeq the engine had seen. */
      readonly engineLastControllerSeq: number | null;
      /**
       * Sent, with every event after it, only once the command being applied is answered
       * (`answer-first.ts`): a provider's `turn.accepted` follows its `turn.start`'s result.
       */
      readonly afterAnswer?: boolean;
    }
  | {
      readonly kind: "receipt";
      readonly commandId: string;
      readonly status: string;
      readonly detail: string;
      /** On a `duplicate`: the outcome the engine's journal stored for the first delivery. */
      readonly original: { readonly status: string; readonly detail: string } | null;
      /** A provider executor's result object (the scripted engine has none). */
      readonly result?: Record<string, unknown>;
    }
  | { readonly kind: "other" };

/**
 * Pure: reads one engine output line. An event keeps its type, payload and
 * emission time; durable mode renumbers it and binds it to the launcher's turn
 * and item, which is what the server admits.
 */
export function readEngineLine(line: string): EngineOutput {
  let envelope: StreamEnvelope;
  try {
    envelope = JSON.parse(line) as StreamEnvelope;
  } catch {
    return { kind: "other" };
  }
  if (envelope?.schema !== RUNNER_STREAM_SCHEMA) return { kind: "other" };
  const message = envelope.message;
  if (message.kind === "command_receipt") {
    return {
      kind: "receipt",
      commandId: message.commandId,
      status: message.status,
      detail: message.detail,
      original: message.original ?? null,
    };
  }
  if (message.kind !== "event" || !isPrpEventType(message.event.eventType)) return { kind: "other" };
  const event = message.event;
  const lastControllerSeq = event.payload.lastControllerSeq;
  return {
    kind: "event",
    engineSeq: event.sourceSeq,
    event: { eventType: event.eventType, payload: event.payload, emittedAt: event.emittedAt },
    engineLastControllerSeq:
      event.eventType === "runner.reconciled" && typeof lastControllerSeq === "number"
        ? lastControllerSeq
        : null,
  };
}
