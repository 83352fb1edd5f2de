import { abortableDelay } from "../client/abortable-delay.js";
import { retryDelay } from "../client/backoff.js";
import type { CreateosClient } from "../client/createos-client.js";
import { isOutputComplete } from "./completeness.js";
import { EarlyWait } from "./early-wait.js";
import {
  budgetError,
  classifyFailure,
  type Failure,
  retryAfterOf,
  STALLED,
  TRICKLED,
} from "./follow-failure.js";
import type { FollowStats } from "./follow-stats.js";
import type { FollowTuning } from "./follow-tuning.js";
import { frameOfLine } from "./frame-bytes.js";
import { FrameDelivery, type TextSink } from "./frame-delivery.js";
import { judgeTrailingLine } from "./line-kind.js";
import { NdjsonLineSplitter } from "./ndjson-lines.js";
import {
  type ConnectionReport,
  countsAgainstBudget,
  endsOutage,
  type OutagePolicy,
} from "./outage-budget.js";
import { type ExitStatus, parseFrameLine } from "./output-frame.js";
import {
  processPath,
  refusesWaitRoute,
  WAIT_UNAVAILABLE,
  type WaitReply,
  waitForProcess,
} from "./process-api.js";
import { frameAssemblyLimit, HeartbeatCadence, stallThreshold } from "./stall-threshold.js";
import { StallWatch } from "./stall-watch.js";

/** What a completeness probe found: `wait`'s reply, or a failure to recover from. */
type WaitOutcome = { readonly reply: WaitReply } | { readonly failure: Failure };

/** Times of the current connection, for the outage budget. */
interface ConnectionTimes {
  openedAt: number | undefined;
  /** The last complete frame: bytes of an unfinished one are not a sign of life. */
  lastFrameAt: number | undefined;
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
  readonly #cadence = new HeartbeatCadence();
  readonly #delivery: FrameDelivery;
  #times: ConnectionTimes = { openedAt: undefined, lastFrameAt: undefined };

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
    this.#delivery = new FrameDelivery(this.stats, this.#cadence, sink);
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
      this.#times = { openedAt: undefined, lastFrameAt: undefined };
      let outcome: { exit: ExitStatus } | { failure: Failure };
      try {
        outcome = await this.#connectOnce(signal);
      } catch (error) {
        outcome = { failure: classifyFailure(error, signal) };
      }
      const { openedAt, lastFrameAt } = this.#times;
      const report: ConnectionReport = {
        advanced: this.stats.cursor > cursorBefore,
        aliveMs: openedAt !== undefined && lastFrameAt !== undefined ? lastFrameAt - openedAt : 0,
        stalled: "failure" in outcome && outcome.failure.kind === "stalled",
      };
      const policy: OutagePolicy = {
        stallTimeoutMs: this.#tuning.stallTimeoutMs,
        heartbeatsSeen: this.#delivery.heartbeatsSeen,
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
      if (failures > this.#tuning.reconnectAttempts) {
        const facts = {
          attempts: failures,
          lastStatus,
          cursor: this.stats.cursor,
          processId: this.#processId,
        };
        throw budgetError(facts, lastFailure);
      }
      this.stats.reconnects++;
      const retryAfter = retryAfterOf(failure);
      await abortableDelay(
        retryDelay(Math.max(1, failures), this.#client.backoff, () => this.#client.random(), retryAfter),
        signal,
      );
    }
  }

  #finish(exit: ExitStatus): ExitStatus {
    this.#delivery.flush();
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
      return { failure: classifyFailure(error, signal) };
    }
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
      let lastFrameAt = lastByteAt;
      this.#times.openedAt = lastByteAt;
      this.#cadence.interrupt();
      const stallWatch = new StallWatch();
      const frameWatch = new StallWatch();
      const assemblyMs = frameAssemblyLimit(this.#tuning.stallTimeoutMs);
      watchdog = setInterval(
        () => {
          const now = Date.now();
          const threshold = stallThreshold(this.#tuning.stallTimeoutMs, this.#cadence.gapMs);
          if (stallWatch.tick(now - lastByteAt, threshold)) connection.abort(STALLED);
          else if (frameWatch.tick(now - lastFrameAt, assemblyMs)) connection.abort(TRICKLED);
        },
        Math.max(10, Math.floor(Math.min(this.#tuning.stallTimeoutMs, 1_000) / 4)),
      );
      const splitter = new NdjsonLineSplitter(this.#tuning.maxFrameBytes);
      const found: { exit: ExitStatus | undefined } = { exit: undefined };
      try {
        // Each chunk is split and delivered before the next is read; the exit frame stops the reading.
        await body.pump((chunk) => {
          lastByteAt = Date.now();
          for (const line of splitter.push(chunk)) {
            const frame = frameOfLine(line);
            if (frame === null) continue;
            lastFrameAt = lastByteAt;
            this.#times.lastFrameAt = lastFrameAt;
            found.exit = this.#delivery.deliver(frame);
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
          const exit = this.#delivery.deliver(parseFrameLine(rest));
          if (exit !== undefined) return { exit };
        }
      } catch (error) {
        const reason: unknown = connection.signal.reason;
        if ((reason === STALLED || reason === TRICKLED) && !signal.aborted) throw reason;
        throw error;
      }
      return { failure: { kind: "ended" } };
    } finally {
      if (watchdog !== undefined) clearInterval(watchdog);
      signal.removeEventListener("abort", onAbort);
      connection.abort();
    }
  }
}
