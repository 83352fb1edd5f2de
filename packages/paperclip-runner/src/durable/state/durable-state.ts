import type { DurableIdentity } from "../durable-identity.js";
import type { PendingTerminalDelivery } from "./terminal-delivery.js";

/** Upstream's schema name: the Paperclip server reads this file when a run closes. */
export const DURABLE_STATE_SCHEMA = "paperclip.runner.durable.state.v1";

/** The lifecycles the server recognises in `runner-state.json`. */
export type DurableLifecycle =
  | "connecting"
  | "ready"
  | "backpressure"
  | "recoverable_failure"
  | "unrecoverable"
  | "suspended"
  | "stopped"
  | "revoked";

/** 0: lifecycle and the run's end (always admitted, into the reserve); 1: progress; 2: chatter. */
export type EventPriority = 0 | 1 | 2;

/** One event waiting for the server's acknowledgement, exactly as it is (re)sent. */
export interface OutboxEntry {
  readonly sourceSeq: number;
  readonly sourceEventId: string;
  readonly eventType: string;
  readonly priority: EventPriority;
  /** UTF-8 size of the serialized envelope: what the outbox bound counts. */
  readonly bytes: number;
  /** The whole `event` message before encryption; a resend is this, byte for byte. */
  readonly envelope: Record<string, unknown>;
}

/**
 * One command the server delivered. `pending` is durable before the command's
 * effect starts; a `pending` entry found by a restarted runner becomes
 * `indeterminate` and is never executed again. `result` is the `command_result`
 * payload, replayed byte for byte when the server delivers the command again.
 * On disk it is split as upstream's runner keeps it (`command-journal-file.ts`).
 */
export interface CommandRecord {
  readonly commandId: string;
  readonly controllerSeq: number;
  readonly type: string;
  /** `wireCommandFingerprint`'s, or `commandFingerprint`'s of the command as received when `fingerprintOf` says so. */
  readonly fingerprint: string;
  /** Set on a record journalled before 2026-12-07, whose fingerprint hashed the command as received. */
  readonly fingerprintOf?: "received";
  readonly status: "pending" | "done" | "indeterminate";
  readonly result: Record<string, unknown> | null;
}

/** `runner-state.json` in durable mode. It never holds the ticket or the lease token. */
export interface DurableState extends DurableIdentity {
  readonly schema: typeof DURABLE_STATE_SCHEMA;
  readonly runnerVersion: string;
  readonly runnerDigest: string;
  readonly lifecycle: DurableLifecycle;
  /** The seq the next event gets; contiguous from 1 across restarts. */
  readonly nextSourceSeq: number;
  readonly ackedSourceSeq: number;
  readonly outbox: readonly OutboxEntry[];
  readonly outboxBytes: number;
  readonly processedCommands: Readonly<Record<string, CommandRecord>>;
  readonly lastControllerCommandSeq: number;
  /** The last local engine event turned into PRP events (the engine resends unacknowledged ones after a restart). */
  readonly engineEventSeq: number;
  /** The controllerSeq the local engine has seen last (its own numbering, contiguous for the commands it was given). */
  readonly engineCommandSeq: number;
  /** The end of the stream whose result the server has not acknowledged yet (`terminal-delivery.ts`). */
  readonly pendingTerminalDelivery: PendingTerminalDelivery | null;
  /** An upstream field the server checks when it closes a run; this runner has no provider cleanup. */
  readonly pendingProviderCleanup: null;
  readonly recoverableFailure: string | null;
  /** The last few failure summaries, redacted and bounded; the server shows them when a run fails. */
  readonly diagnostics: readonly string[];
  readonly restarts: number;
}

export function initialDurableState(
  identity: DurableIdentity,
  runnerVersion: string,
  runnerDigest: string,
): DurableState {
  return {
    schema: DURABLE_STATE_SCHEMA,
    runnerInstanceId: identity.runnerInstanceId,
    environmentLeaseId: identity.environmentLeaseId,
    runId: identity.runId,
    normalizedSessionId: identity.normalizedSessionId,
    turnId: identity.turnId,
    itemId: identity.itemId,
    runnerVersion,
    runnerDigest,
    lifecycle: "connecting",
    nextSourceSeq: 1,
    ackedSourceSeq: 0,
    outbox: [],
    outboxBytes: 0,
    processedCommands: {},
    lastControllerCommandSeq: 0,
    engineEventSeq: 0,
    engineCommandSeq: 0,
    pendingTerminalDelivery: null,
    pendingProviderCleanup: null,
    recoverableFailure: null,
    diagnostics: [],
    restarts: 0,
  };
}
