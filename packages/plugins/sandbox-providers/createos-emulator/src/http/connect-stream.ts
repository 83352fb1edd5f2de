import { once } from "node:events";
import type { ServerResponse } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import type { EmulatedProcess } from "../emulated-process.js";
import type { ArmedFault, FaultBook, FaultContext } from "../fault-book.js";
import type { Fault } from "../fault-types.js";
import type { DataFrame, JournalReader, OutputJournal } from "../journal.js";
import { findProcess } from "./process-routes.js";
import { fail, queryInteger, type RouteContext } from "./route-context.js";

function dataLine(frame: DataFrame, base64 = frame.data.toString("base64")): string {
  return `{"type":"data","seq":${frame.seq},"stream":"${frame.stream}","data_base64":"${base64}"}\n`;
}

function exitLine(exitCode: number | null, signal: string | null): string {
  const fields = [
    ...(exitCode === null ? [] : [`"exit_code":${exitCode}`]),
    ...(signal === null ? [] : [`"signal":"${signal}"`]),
  ];
  return `{"type":"exit",${fields.join(",")}}\n`;
}

// Not canonical padded base64: the plugin must reject it rather than decode garbage.
const INVALID_BASE64 = "@@not-base64@@";
const HEARTBEAT = '{"type":"heartbeat"}\n';
const EXPIRED = '{"type":"error","error":"output_offset_expired"}\n';

type Armed<K extends Fault["kind"]> = ArmedFault<Extract<Fault, { kind: K }>> | undefined;

/**
 * Breaks the connection mid-response, after the frames already written have reached the
 * socket (destroying earlier would discard them): the client sees an unterminated chunked body.
 */
async function cutConnection(res: ServerResponse): Promise<void> {
  const socket = res.socket;
  if (!socket) return;
  await new Promise<void>((resolve) => socket.write(Buffer.alloc(0), () => resolve()));
  socket.destroy();
}

/** The stream faults armed for one connection. */
interface StreamFaults {
  readonly drop: Armed<"drop-stream">;
  readonly stall: Armed<"stall-stream">;
  readonly gap: Armed<"sequence-gap">;
  readonly corrupt: Armed<"invalid-base64">;
  readonly evictFrame: Armed<"evict">;
  readonly duplicate: Armed<"duplicate-replay">;
  readonly omitExit: Armed<"omit-exit">;
  readonly slowMs: number;
}

/** One open `connect` response: replays, follows the journal live, applies its faults. */
class ConnectSession {
  #closed = false;
  readonly #closedPromise: Promise<void>;
  readonly #reader: JournalReader;
  #cursor: number;
  /** Data frames written on this connection; stream faults fire at `afterFrames` of them. */
  #written = 0;
  #corked = false;

  constructor(
    private readonly ctx: RouteContext,
    private readonly journal: OutputJournal,
    private readonly faults: StreamFaults,
    cursor: number,
  ) {
    this.#cursor = cursor;
    this.#reader = journal.attach(cursor);
    this.#closedPromise = once(ctx.res, "close").then(() => {
      this.#closed = true;
    });
  }

  async run(): Promise<void> {
    const { res } = this.ctx;
    const { drop, stall, gap, corrupt, evictFrame } = this.faults;
    try {
      await this.#replayDuplicates();
      for (;;) {
        if (this.#closed) return;
        // Drop and stall fire as soon as the connection has carried `afterFrames` data frames.
        if (this.#fires(drop)) {
          if (drop?.fault.mode === "end") res.end();
          else await cutConnection(res);
          return;
        }
        if (this.#fires(stall)) {
          await this.#closedPromise;
          return;
        }
        const next = this.#cursor + 1;
        if (next <= this.journal.newestSeq) {
          if (this.#fires(evictFrame)) this.journal.evictAll();
          const frame = this.journal.frame(next);
          if (!frame) {
            await this.#write(EXPIRED);
            res.end();
            return;
          }
          this.#cursor = next;
          if (!this.#fires(gap)) {
            await this.#write(this.#fires(corrupt) ? dataLine(frame, INVALID_BASE64) : dataLine(frame));
            this.#written += 1;
          }
          this.journal.delivered(this.#reader, next);
          continue;
        }
        const exit = this.journal.exit;
        if (exit) {
          if (this.faults.omitExit?.fire()) this.ctx.noteFault("omit-exit");
          else await this.#write(exitLine(exit.exitCode, exit.signal));
          res.end();
          return;
        }
        if (await this.#idle()) await this.#write(HEARTBEAT);
      }
    } finally {
      this.journal.detach(this.#reader);
    }
  }

  async #replayDuplicates(): Promise<void> {
    const duplicate = this.faults.duplicate;
    if (!duplicate) return;
    const from = Math.max(this.journal.evictedBefore + 1, this.#cursor - (duplicate.fault.frames ?? 3) + 1);
    const frames: DataFrame[] = [];
    for (let seq = from; seq <= this.#cursor; seq += 1) {
      const frame = this.journal.frame(seq);
      if (frame) frames.push(frame);
    }
    if (frames.length === 0 || !duplicate.fire()) return;
    this.ctx.noteFault("duplicate-replay");
    for (const frame of frames) await this.#write(dataLine(frame));
  }

  #fires<K extends Fault["kind"]>(armed: Armed<K>): boolean {
    const afterFrames = (armed?.fault as { afterFrames?: number } | undefined)?.afterFrames ?? 0;
    if (!armed || this.#written !== afterFrames || !armed.fire()) return false;
    this.ctx.noteFault(armed.fault.kind);
    return true;
  }

  async #write(line: string): Promise<void> {
    if (this.faults.slowMs > 0) await delay(this.faults.slowMs);
    if (this.#closed) return;
    this.cork();
    if (!this.ctx.res.write(line)) await Promise.race([once(this.ctx.res, "drain"), this.#closedPromise]);
  }

  /**
   * Holds what is written back until this turn of the event loop has run, so that a burst
   * (the headers, the frames already journalled, the exit frame and the body's end) leaves
   * in one write to the socket, not one each. The socket is corked, not the response: the
   * response frames each chunk itself either way, while its own corking joins chunks in
   * ways that differ between Node versions. `end()` sends whatever is held at once.
   */
  cork(): void {
    const socket = this.ctx.res.socket;
    if (this.#corked || !socket) return;
    this.#corked = true;
    socket.cork();
    setImmediate(() => {
      this.#corked = false;
      socket.uncork();
    });
  }

  /** Waits for new output, the exit or the client leaving; true when a heartbeat is due instead. */
  async #idle(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const due = await Promise.race([
      this.journal.changed().then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), this.ctx.state.options.heartbeatMs);
      }),
      this.#closedPromise.then(() => false),
    ]);
    clearTimeout(timer);
    return due;
  }
}

function armStreamFaults(
  ctx: RouteContext,
  book: FaultBook,
  scope: FaultContext,
  cursor: number,
): StreamFaults {
  const slow = book.arm("slow-stream", scope);
  let slowMs = 0;
  if (slow?.fire()) {
    ctx.noteFault("slow-stream");
    slowMs = slow.fault.delayMs;
  }
  return {
    drop: book.arm("drop-stream", scope),
    stall: book.arm("stall-stream", scope),
    gap: book.arm("sequence-gap", scope),
    corrupt: book.arm("invalid-base64", scope),
    evictFrame: book.arm("evict", scope, (fault) => fault.mode === "error-frame"),
    duplicate: cursor > 0 ? book.arm("duplicate-replay", scope) : undefined,
    omitExit: book.arm("omit-exit", scope),
    slowMs,
  };
}

/** Applies an armed `evict` (http-410) fault: it only fires when there is output left to lose. */
function applyEvict410(
  ctx: RouteContext,
  process: EmulatedProcess,
  scope: FaultContext,
  cursor: number,
): void {
  if (cursor >= process.journal.newestSeq) return;
  const evict = ctx.state.faults.arm("evict", scope, (fault) => fault.mode === "http-410");
  if (!evict?.fire()) return;
  ctx.noteFault("evict");
  process.journal.evictAll();
}

/**
 * `GET …/connect?after=N`: replays every retained frame with `seq > N`, then follows the
 * journal live with heartbeats while idle, and ends with the exit frame. Armed stream faults
 * alter this one connection.
 */
export async function connectStream(ctx: RouteContext): Promise<void> {
  const process = findProcess(ctx);
  if (!process) return;
  const after = queryInteger(ctx, "after");
  if (after === null) return fail(ctx, 400, "invalid_request", "after must be a non-negative integer.");
  const cursor = after ?? 0;
  const journal = process.journal;
  if (cursor > journal.newestSeq)
    return fail(ctx, 400, "invalid_request", "after is beyond the newest frame.");
  const scope: FaultContext = { ...ctx.match };
  applyEvict410(ctx, process, scope, cursor);
  if (cursor < journal.evictedBefore) {
    return fail(ctx, 410, "output_offset_expired", "The requested output was evicted.");
  }
  const session = new ConnectSession(
    ctx,
    journal,
    armStreamFaults(ctx, ctx.state.faults, scope, cursor),
    cursor,
  );
  session.cork();
  ctx.res.writeHead(200, { "content-type": "application/x-ndjson", "cache-control": "no-store" });
  ctx.res.flushHeaders();
  await session.run();
}
