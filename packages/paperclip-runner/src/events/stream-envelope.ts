import type { PrpEvent } from "./prp-event.js";

export const RUNNER_STREAM_SCHEMA = "paperclip.runner.stream.v1";

/** How a command was answered on the local stream (upstream's three statuses). */
export type CommandReceiptStatus = "accepted" | "duplicate" | "rejected";

/** The answer to one command line that named its command. */
export interface CommandReceiptMessage {
  readonly kind: "command_receipt";
  readonly commandId: string;
  readonly controllerSeq: number;
  readonly status: CommandReceiptStatus;
  readonly detail: string;
  /** Beyond upstream, on a `duplicate`: the outcome the journal stored for the first delivery. */
  readonly original?: { readonly status: string; readonly detail: string };
  /** Beyond upstream, on `controllerSeq is not contiguous`: the seq the runner expects next. */
  readonly expectedControllerSeq?: number;
}

export type DiagnosticLevel = "info" | "warning" | "error";

/** Something the controller should know that is neither an event nor a receipt (a line that named no command). */
export interface DiagnosticMessage {
  readonly kind: "diagnostic";
  readonly level: DiagnosticLevel;
  readonly message: string;
}

export interface EventMessage {
  readonly kind: "event";
  readonly event: PrpEvent;
}

export type StreamMessage = EventMessage | CommandReceiptMessage | DiagnosticMessage;

export interface StreamEnvelope {
  readonly schema: typeof RUNNER_STREAM_SCHEMA;
  readonly message: StreamMessage;
}

export function eventMessage(event: PrpEvent): EventMessage {
  return { kind: "event", event };
}

export function receiptMessage(
  subject: { readonly commandId: string; readonly controllerSeq: number },
  status: CommandReceiptStatus,
  detail: string,
  extra: Pick<CommandReceiptMessage, "original" | "expectedControllerSeq"> = {},
): CommandReceiptMessage {
  return {
    kind: "command_receipt",
    commandId: subject.commandId,
    controllerSeq: subject.controllerSeq,
    status,
    detail,
    ...extra,
  };
}

export function diagnosticMessage(level: DiagnosticLevel, message: string): DiagnosticMessage {
  return { kind: "diagnostic", level, message };
}

/** One stdout line of local mode, without its newline. */
export function streamLine(message: StreamMessage): string {
  const envelope: StreamEnvelope = { schema: RUNNER_STREAM_SCHEMA, message };
  return JSON.stringify(envelope);
}
