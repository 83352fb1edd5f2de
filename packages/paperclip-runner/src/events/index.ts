/**
 * The Paperclip Runner Protocol vocabulary, shared by local mode (which wraps
 * each message in `paperclip.runner.stream.v1` on stdout) and durable mode
 * (which carries the same events in secure frames). Pure builders only.
 */
export {
  eventPriority,
  isPrpEventType,
  PRP_EVENT_TYPES,
  PRP_V2_EVENT_TYPES,
  type PrpEventType,
  type PrpV2EventType,
} from "./event-types.js";
export { type LiftedHarnessEvent, liftHarnessEvent } from "./lift-harness-event.js";
export { NO_PROCESS_EXIT, type ProcessExitFact, processExitFact } from "./process-exit.js";
export {
  buildPrpEvent,
  PRP_EVENT_SCHEMA,
  PRP_ID_MAX_LENGTH,
  PRP_TURN_ID_MAX_LENGTH,
  type PrpEvent,
  type PrpEventOptions,
  type PrpSource,
  prpEventId,
} from "./prp-event.js";
export { RECEIPT_DETAILS } from "./receipt-details.js";
export {
  RUN_RESULT_SCHEMA,
  runResultProblem,
  WORK_DISPOSITIONS,
  type WorkDisposition,
} from "./run-result.js";
export {
  type CommandReceiptMessage,
  type CommandReceiptStatus,
  type DiagnosticLevel,
  type DiagnosticMessage,
  diagnosticMessage,
  type EventMessage,
  eventMessage,
  RUNNER_STREAM_SCHEMA,
  receiptMessage,
  type StreamEnvelope,
  type StreamMessage,
  streamLine,
} from "./stream-envelope.js";
export {
  isValidProposal,
  type RunTerminalState,
  reconcileTerminal,
  TERMINAL_SCHEMA,
  type TerminalFacts,
  type TerminalIntent,
  type TerminalPayload,
  type TerminalReason,
  type TurnTerminalState,
} from "./terminal.js";
