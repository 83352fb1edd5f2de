/**
 * The independent server's `connect` stream: the NDJSON body a `ConnectPlan` shapes from the
 * scripted journal (which frames, heartbeats, unknown frames, line endings, a cut), and how it
 * goes out (body delimiting, chunking, pauses, trickles, the end of the response).
 */
import type { ServerResponse } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import type { ConnectPlan, Framing, ServerScript } from "./independent-server-script.js";
import { dataFrameJson, exitJson } from "./independent-server-wire.js";

/** A small seeded generator (mulberry32): chunk sizes and extra fields differ by seed, never by run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The body of one connect that resumes `after`, as `plan` shapes it. */
export function connectText(
  script: ServerScript,
  plan: ConnectPlan,
  after: number,
  rand: () => number,
): string {
  const framing = plan.framing ?? {};
  const extra = framing.extraFields === true;
  const eol = framing.lineEnding ?? "\n";
  const newest = script.frames.length;
  const from = plan.from ?? after + 1;
  const until = Math.min(plan.until ?? newest, newest);
  const lines: string[] = [];
  for (let i = 0; i < (plan.leadingHeartbeats ?? 0); i++) lines.push('{"type":"heartbeat"}');
  for (let seq = Math.max(1, from); seq <= until; seq++) {
    lines.push(dataFrameJson(seq, script.frames[seq - 1]!, extra, rand));
    if (framing.unknownFrames) lines.push(`{"type":"progress","percent":${seq},"extra":{"a":"ü"}}`);
    if (plan.heartbeatEvery && seq % plan.heartbeatEvery === 0)
      lines.push(extra ? '{"type":"heartbeat","ts":"2026-01-01T00:00:00Z"}' : '{"type":"heartbeat"}');
  }
  if (plan.errorFrame !== undefined) lines.push(JSON.stringify({ type: "error", error: plan.errorFrame }));
  const sendExit = plan.errorFrame === undefined && (plan.exit ?? until >= newest);
  if (sendExit) lines.push(exitJson(script.exit, extra));
  let text = lines.map((line) => (framing.blankLines ? `${line}${eol}  ${eol}` : `${line}${eol}`)).join("");
  if (framing.trailingNewline === false && text.endsWith(eol)) text = text.slice(0, -eol.length);
  if (plan.cutMidLine) text += '{"type":"data","seq":';
  return text;
}

/** The response headers of a connect body: a length only where the body is known to end. */
function connectHeaders(plan: ConnectPlan, text: string): Record<string, string | number> {
  const framing = plan.framing ?? {};
  const headers: Record<string, string | number> = { "content-type": "application/x-ndjson" };
  const ends = plan.end !== "stall" && plan.idleHeartbeats === undefined && plan.trickleMs === undefined;
  if ((framing.body ?? "chunked") === "length" && ends) headers["content-length"] = Buffer.byteLength(text);
  if (framing.closeConnection) headers.connection = "close";
  return headers;
}

async function writePieces(res: ServerResponse, text: string, framing: Framing, rand: () => number) {
  const bytes = Buffer.from(text, "utf8");
  const split = framing.split ?? "frame";
  if (split === "whole" || bytes.length === 0) {
    if (bytes.length > 0) res.write(bytes);
    return;
  }
  if (split === "frame") {
    for (const line of text.split(/(?<=\n)/)) {
      if (res.destroyed) return;
      res.write(line);
      await delay(0);
    }
    return;
  }
  const max = framing.maxChunk ?? 9;
  for (let at = 0; at < bytes.length && !res.destroyed; ) {
    const size = 1 + Math.floor(rand() * max);
    res.write(bytes.subarray(at, at + size));
    at += size;
    await delay(1);
  }
}

/** Writes the stream of a connect that resumes `after` (not a plan's `answer`, which the caller sends). */
export async function writeConnect(
  res: ServerResponse,
  script: ServerScript,
  plan: ConnectPlan,
  after: number,
  rand: () => number,
): Promise<void> {
  if (plan.rawBody !== undefined) {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(plan.rawBody);
    return;
  }
  const framing = plan.framing ?? {};
  const text = connectText(script, plan, after, rand);
  if (framing.body === "close") res.useChunkedEncodingByDefault = false;
  res.writeHead(200, connectHeaders(plan, text));
  res.flushHeaders();
  if (plan.quietMs) await delay(plan.quietMs);
  await writePieces(res, text, framing, rand);
  if (plan.idleHeartbeats) {
    const stop = Date.now() + plan.idleHeartbeats.forMs;
    while (Date.now() < stop && !res.destroyed) {
      await delay(plan.idleHeartbeats.intervalMs);
      res.write(`{"type":"heartbeat"}${framing.lineEnding ?? "\n"}`);
    }
  }
  if (plan.trickleMs !== undefined) {
    // Never a newline: the bytes keep arriving, no frame is ever complete.
    while (!res.destroyed) {
      res.write("x");
      await delay(plan.trickleMs);
    }
    return;
  }
  const end = plan.end ?? "end";
  if (end === "reset") {
    const socket = res.socket;
    if (socket) await new Promise<void>((resolve) => socket.write(Buffer.alloc(0), () => resolve()));
    socket?.destroy();
  } else if (end === "end") {
    res.end();
  }
  // "stall": nothing more, the connection stays open until the client leaves.
}
