/**
 * Fault types of the local CreateOS emulator: the rules a test arms (`FaultPlan`), what fired
 * (`FaultFiring`) and the control that arms them (`EmulatorFaultControl`).
 */

import type { EmulatorRoute } from "./types.js";

/**
 * How many times a fault fires (default 1). `"always"` keeps it armed until `faults.clear()`.
 * A fault only counts when it actually fires.
 */
export type FaultTimes = number | "always";

/** Fields every fault rule accepts. */
export interface FaultScope {
  /** Fire at most this many times (default 1). */
  readonly times?: FaultTimes;
  /**
   * Let this many matching events pass untouched before the fault starts firing (default 0).
   * An event is a request for `http-status`, `late-apply`, `stale-state`, `lose-create-reply` and `short-file`, a connect stream for the others.
   */
  readonly skip?: number;
  /** Only for this sandbox id. */
  readonly sandboxId?: string;
  /** Only for this process id (stream and process-route faults). */
  readonly processId?: string;
}

/**
 * Answer matching requests with `status` instead of handling them (no side effect happens).
 * Covers 5xx/429 bursts on any route and failing kills (`route: "process.kill"`).
 */
export interface HttpStatusFault extends FaultScope {
  readonly kind: "http-status";
  /** `"*"` matches every route. */
  readonly route: EmulatorRoute | "*";
  readonly status: number;
  /** Sent as `Retry-After` (whole seconds), when set. */
  readonly retryAfterSeconds?: number;
}

/**
 * Connect-stream faults count the data frames written on the current connection
 * (`afterFrames`, default 0; frames resent by `duplicate-replay` do not count).
 */
export interface StreamFaultBase extends FaultScope {
  readonly afterFrames?: number;
}

/** Drop the connect stream after N data frames: `reset` destroys the socket, `end` ends the response cleanly (no exit frame). */
export interface DropStreamFault extends StreamFaultBase {
  readonly kind: "drop-stream";
  readonly mode?: "reset" | "end";
}

/** Stop writing anything (no data, no heartbeats) after N data frames, keeping the connection open. */
export interface StallStreamFault extends StreamFaultBase {
  readonly kind: "stall-stream";
}

/** On a connect with `after=N` (N > 0), first resend up to `frames` (default 3) frames with `seq <= N`. */
export interface DuplicateReplayFault extends FaultScope {
  readonly kind: "duplicate-replay";
  readonly frames?: number;
}

/** Skip one data frame (the one after N frames on the connection), producing a sequence gap. */
export interface SequenceGapFault extends StreamFaultBase {
  readonly kind: "sequence-gap";
}

/** Send one data frame (the one after N frames) with a `data_base64` that is not canonical base64. */
export interface InvalidBase64Fault extends StreamFaultBase {
  readonly kind: "invalid-base64";
}

/**
 * Really evict the process's journal (every retained frame is dropped). `http-410` fires on a
 * connect whose cursor is below the newest frame (answer 410, and 410 for every later connect
 * from such a cursor); `error-frame` fires after N frames when another frame is due, and the
 * stream then reports `{"type":"error","error":"output_offset_expired"}`.
 */
export interface EvictJournalFault extends StreamFaultBase {
  readonly kind: "evict";
  readonly mode: "http-410" | "error-frame";
}

/** Wait `delayMs` before every frame written on the connection (heartbeats included). */
export interface SlowStreamFault extends FaultScope {
  readonly kind: "slow-stream";
  readonly delayMs: number;
}

/**
 * Create the process (or, with `route: "sandbox.create"`, the sandbox), then lose the reply:
 * destroy the connection (default) or answer `status` (for example 502) although it exists.
 */
export interface LoseCreateReplyFault extends FaultScope {
  readonly kind: "lose-create-reply";
  /** Which create (default `process.create`). */
  readonly route?: "process.create" | "sandbox.create";
  readonly status?: number;
}

/**
 * Hold a matching request `delayMs` before handling it, then handle it (its effect applied)
 * even if the client has gone meanwhile, as a service still working through a request its
 * client abandoned would. The answer, if anyone still waits for it, comes after the effect.
 */
export interface LateApplyFault extends FaultScope {
  readonly kind: "late-apply";
  /** `"*"` matches every route. */
  readonly route: EmulatorRoute | "*";
  readonly delayMs: number;
}

/**
 * A pause or resume is answered and started as usual, but `GET /sandboxes/{id}` keeps showing
 * the state the sandbox had before it for `delayMs` (a state read that lags a transition
 * CreateOS has taken). Only for `sandbox.pause` and `sandbox.resume`.
 */
export interface StaleStateFault extends FaultScope {
  readonly kind: "stale-state";
  readonly route: "sandbox.pause" | "sandbox.resume";
  readonly delayMs: number;
}

/** When the process has exited and its frames are sent, end the stream without the exit frame. */
export interface OmitExitFault extends FaultScope {
  readonly kind: "omit-exit";
}

/**
 * `GET /files` answers a complete reply of only the file's first `bytes` bytes (default 0), as a
 * read that raced the file's writer would: the `Content-Length` matches what is sent.
 */
export interface ShortFileFault extends FaultScope {
  readonly kind: "short-file";
  readonly bytes?: number;
}

export type Fault =
  | HttpStatusFault
  | DropStreamFault
  | StallStreamFault
  | DuplicateReplayFault
  | SequenceGapFault
  | InvalidBase64Fault
  | EvictJournalFault
  | SlowStreamFault
  | LoseCreateReplyFault
  | LateApplyFault
  | StaleStateFault
  | OmitExitFault
  | ShortFileFault;

/** The faults armed for a test; order matters only between faults of the same kind. */
export interface FaultPlan {
  readonly faults: readonly Fault[];
}

/** A fault that fired, for assertions. */
export interface FaultFiring {
  readonly kind: Fault["kind"];
  readonly route: EmulatorRoute;
  readonly sandboxId?: string;
  readonly processId?: string;
  /** Index of the rule in the plan that fired. */
  readonly rule: number;
}

export interface EmulatorFaultControl {
  /** Replace the armed faults (counters and the `fired()` history start afresh). */
  set(plan: FaultPlan): void;
  /** Add one fault to the armed ones. */
  add(fault: Fault): void;
  /** Disarm every fault and forget the `fired()` history. */
  clear(): void;
  /** Every fault that fired since the last `set()` or `clear()`, in order. */
  fired(): readonly FaultFiring[];
}
