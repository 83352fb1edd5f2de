import { once } from "node:events";
import type { ServerResponse } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import type { ArmedFault, FaultContext } from "../fault-book.js";
import type { DataFrame } from "../journal.js";
import type { Fault } from "../types.js";
import { findProcess } from "./process-routes.js";
import { fail, queryInteger, type RouteContext } from "./route-context.js";

function dataLine(frame: DataFrame, base64 = frame.data.toString("base64")): string {
  return `{"type":"data","seq":${frame.seq},"stream":"${frame.stream}","data_base64":"${base64}"}\n`;
}

// Not canonical padded base64: the plugin must reject it rather than decode garbage.
const INVALID_BASE64 = "@@not-base64@@";
const HEARTBEAT = '{"type":"heartbeat"}\n';
const EXPIRED = '{"type":"error","error":"output_offset_expired"}\n';

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

type Armed<K extends Fault["kind"]> = ArmedFault<Extract<Fault, { kind: K }>> | undefined;

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
  const cursorStart = after ?? 0;
  const journal = process.journal;
  if (cursorStart > journal.newestSeq)
    return fail(ctx, 400, "invalid_request", "after is beyond the newest frame.");
  const scope: FaultContext = { ...ctx.match };
  const book = ctx.state.faults;
  const evict410 = book.arm("evict", scope, (fault) => fault.mode === "http-410");
  if (evict410?.fire()) {
    ctx.noteFault("evict");
    journal.evictAll();
  }
  if (cursorStart < journal.evictedBefore) {
    return fail(ctx, 410, "output_offset_expired", "The requested output was evicted.");
  }

  const { res } = ctx;
  res.writeHead(200, { "content-type": "application/x-ndjson", "cache-control": "no-store" });
  res.flushHeaders();
  let closed = false;
  const closedPromise = once(res, "close").then(() => {
    closed = true;
  });

  const reader = journal.attach(cursorStart);
  try {
    const drop: Armed<"drop-stream"> = book.arm("drop-stream", scope);
    const stall: Armed<"stall-stream"> = book.arm("stall-stream", scope);
    const gap: Armed<"sequence-gap"> = book.arm("sequence-gap", scope);
    const corrupt: Armed<"invalid-base64"> = book.arm("invalid-base64", scope);
    const evictFrame: Armed<"evict"> = book.arm("evict", scope, (fault) => fault.mode === "error-frame");
    const slow: Armed<"slow-stream"> = book.arm("slow-stream", scope);
    const duplicate: Armed<"duplicate-replay"> =
      cursorStart > 0 ? book.arm("duplicate-replay", scope) : undefined;
    const omitExit: Armed<"omit-exit"> = book.arm("omit-exit", scope);
    let slowMs = 0;
    if (slow?.fire()) {
      ctx.noteFault("slow-stream");
      slowMs = slow.fault.delayMs;
    }
    const fires = <K extends Fault["kind"]>(armed: Armed<K>, written: number): boolean => {
      if (!armed || written !== ((armed.fault as { afterFrames?: number }).afterFrames ?? 0)) return false;
      if (!armed.fire()) return false;
      ctx.noteFault(armed.fault.kind);
      return true;
    };

    const write = async (line: string): Promise<void> => {
      if (slowMs > 0) await delay(slowMs);
      if (closed) return;
      if (!res.write(line)) await Promise.race([once(res, "drain"), closedPromise]);
    };

    let cursor = cursorStart;
    let written = 0;
    if (duplicate) {
      const from = Math.max(journal.evictedBefore + 1, cursorStart - (duplicate.fault.frames ?? 3) + 1);
      const frames: DataFrame[] = [];
      for (let seq = from; seq <= cursorStart; seq += 1) {
        const frame = journal.frame(seq);
        if (frame) frames.push(frame);
      }
      if (frames.length > 0 && duplicate.fire()) {
        ctx.noteFault("duplicate-replay");
        for (const frame of frames) await write(dataLine(frame));
      }
    }

    for (;;) {
      if (closed) return;
      // Drop and stall fire as soon as the connection has carried `afterFrames` data frames.
      if (fires(drop, written)) {
        if (drop?.fault.mode === "end") res.end();
        else await cutConnection(res);
        return;
      }
      if (fires(stall, written)) {
        await closedPromise;
        return;
      }
      const next = cursor + 1;
      if (next <= journal.newestSeq) {
        if (fires(evictFrame, written)) journal.evictAll();
        const frame = journal.frame(next);
        if (!frame) {
          await write(EXPIRED);
          res.end();
          return;
        }
        cursor = next;
        if (!fires(gap, written)) {
          await write(fires(corrupt, written) ? dataLine(frame, INVALID_BASE64) : dataLine(frame));
          written += 1;
        }
        journal.delivered(reader, cursor);
        continue;
      }
      const exit = journal.exit;
      if (exit) {
        if (omitExit?.fire()) {
          ctx.noteFault("omit-exit");
          res.end();
          return;
        }
        const fields = [
          ...(exit.exitCode === null ? [] : [`"exit_code":${exit.exitCode}`]),
          ...(exit.signal === null ? [] : [`"signal":"${exit.signal}"`]),
        ];
        await write(`{"type":"exit",${fields.join(",")}}\n`);
        res.end();
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const idle = await Promise.race([
        journal.changed().then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), ctx.state.options.heartbeatMs);
        }),
        closedPromise.then(() => false),
      ]);
      clearTimeout(timer);
      if (idle) await write(HEARTBEAT);
    }
  } finally {
    journal.detach(reader);
  }
}
