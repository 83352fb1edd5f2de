import { CreateosApiError, CreateosError, PaperclipError } from "@paperclipai/errors";
import { abortableDelay } from "../client/abortable-delay.js";
import { retryDelay } from "../client/backoff.js";
import type { CreateosClient } from "../client/createos-client.js";
import { honoursRetryAfter, isRetryableStreamStatus } from "../client/retry-policy.js";
import { isOutputComplete } from "./completeness.js";
import { EarlyWait } from "./early-wait.js";
import { frameOfLine } from "./frame-bytes.js";
import { judgeTrailingLine } from "./line-kind.js";
import { NdjsonLineSplitter } from "./ndjson-lines.js";
import {
  type ConnectionReport,
  countsAgainstBudget,
  endsOutage,
  type OutagePolicy,
} from "./outage-budget.js";
import {
  DecodeScratch,
  type ExitStatus,
  judgeDataFrame,
  type OutputStream,
  parseExitFrame,
  parseFrameLine,
  type RawFrame,
} from "./output-frame.js";
import {
  processPath,
  refusesWaitRoute,
  WAIT_UNAVAILABLE,
  type WaitReply,
  waitForProcess,
} from "./process-api.js";
import { HeartbeatCadence, stallThreshold } from "./stall-threshold.js";
import { StallWatch } from "./stall-watch.js";
import { Utf8StreamDecoder } from "./utf8-stream-decoder.js";

export interface FollowTuning {
  /** Failed reconnects tolerated per outage; new output (or a connection alive for a whole stall window) ends an outage (default 6). */
  readonly reconnectAttempts: number;
  /** No byte for this long aborts the connection and resumes from the cursor (default 15 s, a few heartbeats). */
  readonly stallTimeoutMs: number;
  /** How long `wait` may block when a stream ends without an exit frame (default 1 s). */
  readonly waitProbeMs: number;
  /**
   * How long the `wait` sent with the first connect may block (default 30 s): a command that
   * exits sooner has its completeness evidence without a round trip after its exit frame.
   */
  readonly earlyWaitMs: number;
  /** Longest NDJSON frame accepted (default 8 MiB). */
  readonly maxFrameBytes: number;
}

export const DEFAULT_FOLLOW_TUNING: FollowTuning = {
  reconnectAttempts: 6,
  stallTimeoutMs: 15_000,
  waitProbeMs: 1_000,
  earlyWaitMs: 30_000,
  maxFrameBytes: 8 * 1024 * 1024,
};

export interface FollowStats {
  cursor: number;
  connections: number;
  reconnects: number;
  duplicates: number;
}

/**
 * Where decoded text goes, once and in order; a throw here is the sink's failure, never the
 * network's. `ascii` is true when every character of `text` is below U+0080.
 */
export type TextSink = (stream: OutputStream, text: string, ascii: boolean) => void;

const STALLED = Symbol("stalled");

type Failure =
  | { readonly kind: "connection"; readonly status: number | null; readonly retryAfterMs: number | undefined }
  | { readonly kind: "stalled" }
  | { readonly kind: "ended" };

/** What a completeness probe found: `wait`'s reply, or a failure to recover from. */
type WaitOutcome = { readonly reply: WaitReply } | { readonly failure: Failure };

/** Times of the current connection, for the outage budget. */
interface ConnectionTimes {
  openedAt: number | undefined;
  lastByteAt: number | undefined;
}

/**
 * Follows a process's output from cursor 0 to its exit: reconnects from the cursor after
 * drops, 5xx, 429 and stalls; checks completeness through `wait`; rejects protocol breaks.
 */
export class OutputFollower {
  readonly stats: FollowStats = { cursor: 0, connections: 0, reconnects: 0, duplicates: 0 };
  readonly #client: CreateosClient;
  readonly #sandboxId: string;
  readonly #processId: string;
  readonly #tuning: FollowTuning;
  readonly #sink: TextSink;
  readonly #decoder = new Utf8StreamDecoder();
  readonly #scratch = new DecodeScratch();
  #heartbeatsSeen = false;
  #times: ConnectionTimes = { openedAt: undefined, lastByteAt: undefined };
  readonly #cadence = new HeartbeatCadence();

  constructor(
    client: CreateosClient,
    sandboxId: string,
    processId: string,
    tuning: FollowTuning,
    sink: TextSink,
  ) {
    this.#client = client;
    this.#sandboxId = sandboxId;
    this.#processId = processId;
    this.#tuning = tuning;
    this.#sink = sink;
  }

  /** Resolves with the exit once every frame up to the journal's newest has been delivered. */
  async follow(signal: AbortSignal): Promise<ExitStatus> {
    const early = new EarlyWait(this.#client, this.#sandboxId, this.#processId, this.#tuning.earlyWaitMs);
    try {
      return await this.#followFromCursor(signal, early);
    } finally {
      early.cancel();
    }
  }

  async #followFromCursor(signal: AbortSignal, early: EarlyWait): Promise<ExitStatus> {
    let failures = 0;
    let lastStatus: number | null = null;
    let lastFailure: Failure | undefined;
    for (;;) {
      signal.throwIfAborted();
      const cursorBefore = this.stats.cursor;
      this.#times = { openedAt: undefined, lastByteAt: undefined };
      let outcome: { exit: ExitStatus } | { failure: Failure };
      try {
        outcome = await this.#connectOnce(signal);
      } catch (error) {
        outcome = { failure: this.#classify(error, signal) };
      }
      const { openedAt, lastByteAt } = this.#times;
      const report: ConnectionReport = {
        advanced: this.stats.cursor > cursorBefore,
        aliveMs: openedAt !== undefined && lastByteAt !== undefined ? lastByteAt - openedAt : 0,
        stalled: "failure" in outcome && outcome.failure.kind === "stalled",
      };
      const policy: OutagePolicy = {
        stallTimeoutMs: this.#tuning.stallTimeoutMs,
        heartbeatsSeen: this.#heartbeatsSeen,
      };
      if (endsOutage(report, policy)) {
        failures = 0;
        lastStatus = null;
      }

      if ("exit" in outcome) {
        // Trust an exit only when the journal holds nothing past the cursor.
        // The process has exited, so this returns at once; the bound only covers a lagging server.
        // Without a `wait` route the exit frame (sent after the data it follows) is the only evidence.
        const waited = await this.#exitEvidence(early, signal);
        if ("failure" in waited) outcome = waited;
        else if (!waited.reply.available || isOutputComplete(waited.reply, this.stats.cursor, true))
          return this.#finish(outcome.exit);
        else outcome = { failure: { kind: "ended" } };
      } else if (outcome.failure.kind === "ended") {
        // No exit frame: `wait` tells a finished process (whose tail may still need a replay) from a cut stream.
        const waited = await this.#waitOrFailure(this.#tuning.waitProbeMs, signal);
        if ("failure" in waited) outcome = waited;
        else if (isOutputComplete(waited.reply, this.stats.cursor, false)) {
          return this.#finish({ exitCode: waited.reply.exitCode, signal: waited.reply.signal });
        }
      }

      const failure = outcome.failure;
      lastFailure = failure;
      if (failure.kind === "connection" && failure.status !== null) lastStatus = failure.status;
      if (countsAgainstBudget(report, policy)) failures++;
      if (failures > this.#tuning.reconnectAttempts)
        throw this.#budgetError(failures, lastStatus, lastFailure);
      this.stats.reconnects++;
      const retryAfter =
        failure.kind === "connection" && failure.status !== null && honoursRetryAfter(failure.status)
          ? failure.retryAfterMs
          : undefined;
      await abortableDelay(
        retryDelay(Math.max(1, failures), this.#client.backoff, () => this.#client.random(), retryAfter),
        signal,
      );
    }
  }

  #finish(exit: ExitStatus): ExitStatus {
    for (const stream of ["stdout", "stderr"] as const) {
      const rest = this.#decoder.flush(stream);
      if (rest !== "") this.#emit(stream, rest, false);
    }
    return exit;
  }

  /** The early `wait`'s reply when it is evidence; else a `wait` asked now. */
  async #exitEvidence(early: EarlyWait, signal: AbortSignal): Promise<WaitOutcome> {
    const reply = await early.take(this.#tuning.waitProbeMs, signal);
    signal.throwIfAborted();
    return reply === undefined ? this.#waitOrFailure(this.#tuning.waitProbeMs, signal) : { reply };
  }

  async #waitOrFailure(timeoutMs: number, signal: AbortSignal): Promise<WaitOutcome> {
    try {
      return {
        reply: await waitForProcess(this.#client, this.#sandboxId, this.#processId, timeoutMs, signal),
      };
    } catch (error) {
      if (refusesWaitRoute(error) && !signal.aborted) return { reply: WAIT_UNAVAILABLE };
      return { failure: this.#classify(error, signal) };
    }
  }

  #budgetError(attempts: number, lastStatus: number | null, last: Failure | undefined): CreateosError {
    const details = { attempts, lastStatus, cursor: this.stats.cursor, processId: this.#processId };
    if (last?.kind === "ended") {
      return new CreateosError(
        "ERR_CREATEOS_STREAM_ENDED",
        "CreateOS process stream ended without an exit status.",
        {
          details,
          retryable: true,
        },
      );
    }
    return new CreateosError("ERR_CREATEOS_OUTPUT_CONNECTION", "CreateOS process output connection failed.", {
      details,
      retryable: true,
    });
  }

  /** Which failures are a drop to recover from; everything else is rethrown. */
  #classify(error: unknown, signal: AbortSignal): Failure {
    if (signal.aborted) throw signal.reason;
    if (error === STALLED) return { kind: "stalled" };
    if (error instanceof CreateosApiError) {
      if (error.status === 410) throw evicted();
      if (isRetryableStreamStatus(error.status)) {
        return { kind: "connection", status: error.status, retryAfterMs: error.retryAfterMs };
      }
      throw error;
    }
    if (PaperclipError.is(error, ["ERR_CREATEOS_CONNECTION", "ERR_CREATEOS_REQUEST_TIMEOUT"])) {
      return { kind: "connection", status: null, retryAfterMs: undefined };
    }
    if (PaperclipError.is(error)) throw error;
    // A body that breaks mid-read (socket reset, "terminated") is a drop.
    if (error instanceof TypeError || (error instanceof Error && error.name === "AbortError")) {
      return { kind: "connection", status: null, retryAfterMs: undefined };
    }
    throw error;
  }

  async #connectOnce(signal: AbortSignal): Promise<{ exit: ExitStatus } | { failure: Failure }> {
    const connection = new AbortController();
    const onAbort = (): void => connection.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) connection.abort(signal.reason);
    let watchdog: NodeJS.Timeout | undefined;
    try {
      this.stats.connections++;
      // Until the headers arrive the request's own deadline applies (a pacer wait is not a stall).
      const { body } = await this.#client.stream({
        method: "GET",
        path: `${processPath(this.#sandboxId, this.#processId)}/connect`,
        query: { after: this.stats.cursor },
        operation: "output connection",
        idempotent: true,
        signal: connection.signal,
        timeoutMs: Math.max(this.#tuning.stallTimeoutMs, 5_000),
      });
      if (!body) return { failure: { kind: "ended" } };
      let lastByteAt = Date.now();
      this.#times.openedAt = lastByteAt;
      this.#cadence.interrupt();
      const stallWatch = new StallWatch();
      watchdog = setInterval(
        () => {
          const threshold = stallThreshold(this.#tuning.stallTimeoutMs, this.#cadence.gapMs);
          if (stallWatch.tick(Date.now() - lastByteAt, threshold)) connection.abort(STALLED);
        },
        Math.max(10, Math.floor(Math.min(this.#tuning.stallTimeoutMs, 1_000) / 4)),
      );
      const splitter = new NdjsonLineSplitter(this.#tuning.maxFrameBytes);
      const found: { exit: ExitStatus | undefined } = { exit: undefined };
      try {
        // Each chunk is split and delivered before the next is read; the exit frame stops the reading.
        await body.pump((chunk) => {
          lastByteAt = Date.now();
          this.#times.lastByteAt = lastByteAt;
          for (const line of splitter.push(chunk)) {
            const frame = frameOfLine(line);
            if (frame === null) continue;
            found.exit = this.#onFrame(frame);
            if (found.exit !== undefined) return true;
          }
          return false;
        }, connection.signal);
        if (found.exit !== undefined) return { exit: found.exit };
        const rest = splitter.takeRest();
        const trailing = judgeTrailingLine(rest);
        // A complete last frame without its newline is a frame; text that cannot begin one is
        // invalid (the frame parser says so); a cut frame is a drop, resumed from the cursor.
        if (trailing === "frame" || trailing === "invalid") {
          const exit = this.#onFrame(parseFrameLine(rest));
          if (exit !== undefined) return { exit };
        }
      } catch (error) {
        if (connection.signal.reason === STALLED && !signal.aborted) throw STALLED;
        throw error;
      }
      return { failure: { kind: "ended" } };
    } finally {
      if (watchdog !== undefined) clearInterval(watchdog);
      signal.removeEventListener("abort", onAbort);
      connection.abort();
    }
  }

  /** Handles one frame; returns the exit when it is the exit frame. */
  #onFrame(frame: RawFrame): ExitStatus | undefined {
    switch (frame.type) {
      case "heartbeat":
        this.#heartbeatsSeen = true;
        this.#cadence.onHeartbeat(Date.now());
        return undefined;
      case "data": {
        const decision = judgeDataFrame(frame, this.stats.cursor, this.#scratch);
        if (decision.kind === "duplicate") {
          this.stats.duplicates++;
          return undefined;
        }
        this.#cadence.interrupt();
        const text = this.#decoder.decode(decision.stream, decision.bytes);
        this.stats.cursor = decision.seq;
        if (text !== "") this.#emit(decision.stream, text, this.#decoder.lastWasAscii);
        return undefined;
      }
      case "exit":
        return parseExitFrame(frame);
      case "error":
        if (frame.error === "output_offset_expired") throw evicted();
        throw new CreateosError("ERR_CREATEOS_OUTPUT_INVALID", "CreateOS process output is invalid.", {
          details: {
            reason: "error frame",
            error: typeof frame.error === "string" ? frame.error.slice(0, 100) : null,
          },
        });
      default:
        // Unknown frame types are ignored: a newer server may add some.
        return undefined;
    }
  }

  #emit(stream: OutputStream, text: string, ascii: boolean): void {
    try {
      this.#sink(stream, text, ascii);
    } catch (error) {
      throw new CreateosError(
        "ERR_CREATEOS_LIVE_LOG_FAILED",
        "The live log callback failed; the CreateOS command was stopped.",
        {
          cause: error,
        },
      );
    }
  }
}

function evicted(): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_OUTPUT_EVICTED",
    "CreateOS process output was evicted before it could be read.",
  );
}
