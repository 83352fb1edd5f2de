/**
 * Public types of the local CreateOS emulator (`@paperclipai/createos-emulator`).
 *
 * The emulator is a real HTTP server on loopback implementing the CreateOS calls the plugin
 * uses, under `/v1`, with real child processes. Sandbox paths seen by the API and by
 * processes: `/paperclip-workspace/**` and `/tmp/**` are private per-sandbox directories on
 * the host (see `isolation` for how processes see them). Any other path is outside the
 * emulated sandbox's writable area and the files API answers 403 for it.
 */

/** States reported by `GET /v1/sandboxes/{id}`. */
export type SandboxStatus =
  | "creating"
  | "running"
  | "pausing"
  | "paused"
  | "resuming"
  | "error"
  | "destroyed"
  | "failed";

/** A fixed name for each call of the API; fault rules and request records use it. */
export type EmulatorRoute =
  | "sandbox.create"
  | "sandbox.get"
  | "sandbox.pause"
  | "sandbox.resume"
  | "sandbox.delete"
  | "sandbox.exec"
  | "files.put"
  | "files.get"
  | "process.create"
  | "process.stdinClose"
  | "process.connect"
  | "process.wait"
  | "process.kill"
  | "unknown";

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

export interface CreateosEmulatorOptions {
  /** Loopback address to listen on (default `127.0.0.1`); non-loopback hosts are refused. */
  readonly host?: string;
  /** Port (default 0: a free port). */
  readonly port?: number;
  /** The accepted `X-Api-Key` (default: a random key, see `emulator.apiKey`). */
  readonly apiKey?: string;
  /** Heartbeat interval on idle connect streams in ms (default 2000). */
  readonly heartbeatMs?: number;
  /** Output journal size per process in bytes of payload (default 1 MiB). */
  readonly journalBytes?: number;
  /**
   * What happens when a process writes faster than its readers take the output (default false):
   * - `false` (the service's behaviour): the journal evicts the oldest frames; a reader that
   *   falls behind gets `output_offset_expired` (error frame, or HTTP 410 on connect).
   * - `true`: frames not yet written to a connection (and to every attached one) are kept and
   *   the emulator stops reading the process's pipes, so the process blocks like on a full
   *   pipe. Use it for throughput benchmarks, where the producer outruns any reader.
   */
  readonly journalBackpressure?: boolean;
  /** Requests per minute per caller IP (default 300); `null` turns the rate limit off. */
  readonly rateLimitPerMinute?: number | null;
  /** Token-bucket burst (default 100, at most `rateLimitPerMinute`). */
  readonly rateLimitBurst?: number;
  /** Delay of each asynchronous state change (creating/pausing/resuming) in ms (default 50). */
  readonly transitionMs?: number;
  /** Host directory under which sandbox directories are created (default: a fresh dir in the OS temp dir). */
  readonly workspaceRoot?: string;
  /**
   * How processes see `/paperclip-workspace` and `/tmp` (default `"none"`):
   * - `"none"`: plain child processes; the path prefixes `/paperclip-workspace` and `/tmp` in
   *   `cmd`, `args` and `cwd` are rewritten to the sandbox's host directories, and `TMPDIR`,
   *   `HOME` and `PAPERCLIP_EMULATOR_WORKSPACE` point there. Paths computed at run time by the
   *   command (for example `pwd`) show host paths.
   * - `"bwrap"`: each process and `exec` runs in this repo's bubblewrap sandbox
   *   (`@paperclipai/adapter-utils`, workspace filesystem scope, network denied): only system
   *   directories read-only, the sandbox's directories writable at `/paperclip-workspace`
   *   and `/tmp`, so paths are exact. Sandbox directories then live under `/var/tmp` by
   *   default (a `workspaceRoot` under `/tmp` is refused: it would be hidden by `/tmp`).
   */
  readonly isolation?: "none" | "bwrap";
  /** The bubblewrap executable for `isolation: "bwrap"` (default `bwrap` on PATH). */
  readonly bwrapPath?: string;
  /** Faults armed from the start. */
  readonly faults?: FaultPlan;
  /** Maximum buffered output per stream of `exec` in bytes (default 1 MiB). */
  readonly execOutputBytes?: number;
  /**
   * The shape catalog: a create with another shape gets 400 (default: CreateOS's published
   * catalog, `s-0.25vcpu-512mb` … `s-8vcpu-16gb`); `null` accepts any shape.
   */
  readonly shapes?: readonly string[] | null;
}

export interface SandboxSnapshot {
  readonly id: string;
  readonly status: SandboxStatus;
  readonly shape: string;
  readonly rootfs: string | null;
  readonly region: string | null;
  /** Host directory backing `/paperclip-workspace`. */
  readonly workspaceDir: string;
  /** Host directory backing `/tmp`. */
  readonly tmpDir: string;
  readonly processIds: readonly string[];
}

export interface ProcessSnapshot {
  readonly id: string;
  readonly sandboxId: string;
  /** OS pid of the process-group leader (`/bin/bash`, or `bwrap`). */
  readonly osPid: number;
  /** True until the leader has exited. */
  readonly running: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** True once `DELETE …/processes/{pid}` (or sandbox deletion/close) has killed the tree. */
  readonly killedTree: boolean;
  /** True while any process of the tree (leader's group or its descendants) is still alive on the OS. */
  readonly treeAlive: boolean;
  readonly newestSeq: number;
  /** Frames with `seq <= evictedBefore` were evicted from the journal. */
  readonly evictedBefore: number;
  /** Payload bytes currently retained in the journal. */
  readonly journalBytes: number;
  readonly stdinClosed: boolean;
}

export interface RequestRecord {
  readonly method: string;
  /** The path without the query string, for example `/v1/sandboxes/sbx_1/processes`. */
  readonly path: string;
  readonly query: string;
  readonly route: EmulatorRoute;
  /** The HTTP status answered; 0 when the connection was destroyed before a status was sent. */
  readonly status: number;
  /** The fault that decided this answer, if any. */
  readonly fault?: Fault["kind"];
  /**
   * The TCP connection that carried it: 1, 2, … in the order connections carry their first
   * request. Requests with the same number shared a kept-alive connection.
   */
  readonly connection: number;
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

export interface CreateosEmulator {
  /** The HTTP origin, for example `http://127.0.0.1:43125` (the API lives under `/v1`). */
  readonly url: string;
  readonly port: number;
  readonly apiKey: string;
  readonly faults: EmulatorFaultControl;
  sandboxes(): SandboxSnapshot[];
  processes(): ProcessSnapshot[];
  requests(): RequestRecord[];
  /** Settles once every request in flight now (a `late-apply` one waiting included) has been handled. */
  settled(): Promise<void>;
  /** Force a sandbox state (for example `"error"`), cancelling any pending transition. */
  setSandboxStatus(id: string, status: SandboxStatus): void;
  /**
   * Deletes a sandbox behind its client's back (the dashboard, another API client): its
   * processes die and its directories go; it then reads `destroyed`, or with `forget` is
   * unknown (404). False when no such sandbox exists.
   */
  deleteSandbox(id: string, options?: { readonly forget?: boolean }): Promise<boolean>;
  /** Kill every process tree, remove every sandbox directory, close every socket. Idempotent. */
  close(): Promise<void>;
}
