/**
 * A second, deliberately different CreateOS-compatible server, written from the spec's API
 * table only (no emulator code): processes are scripted frame journals, every answer can be
 * replaced per route, and each `connect` is shaped by a plan (framing, chunking, line
 * endings, body delimiting, heartbeats, drops, stalls). It records what the plugin sent.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import type { Answer, Framing, Route, SeenRequest, ServerScript } from "./independent-server-script.js";
import { dataFrameJson, exitJson, routeOf } from "./independent-server-wire.js";
import type { RetryWitness } from "./timer-tracker.js";

const KEY = "independent-key-7f3a";

function parseJson(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface IndependentServer {
  readonly url: string;
  readonly apiKey: string;
  readonly seen: SeenRequest[];
  /**
   * Requests that followed a `Retry-After` the server had sent on that route, when no wait of the
   * client (the `RetryWitness` given to `startIndependentServer`) had lasted until the instant
   * it named: the client retried without honouring it. Empty without a witness.
   */
  readonly earlyRetries: Route[];
  /** Requests to any path outside `/v1` (a followed redirect would land here). */
  readonly strayRequests: SeenRequest[];
  /** Connect responses still open (a leak once `execute` has settled). */
  openStreams(): number;
  /** Sockets still open from the plugin's side. */
  openSockets(): number;
  kills(): SeenRequest[];
  count(route: Route): number;
  /** Paths of the files a sandbox holds (uploads not yet removed by an `exec` of `/bin/rm`). */
  filePaths(sandboxId: string): string[];
  /** Someone else deletes a sandbox: it then reads `destroyed`, or with `forget` 404. */
  deleteBehindPlugin(sandboxId: string, forget: boolean): void;
  /** Replaces the script for the next process. */
  use(script: ServerScript): void;
  /** Forgets recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

export async function startIndependentServer(
  seed = 1,
  retryWaits?: RetryWitness,
): Promise<IndependentServer> {
  let script: ServerScript = { frames: [], exit: { exitCode: 0, signal: null } };
  const seen: SeenRequest[] = [];
  const earlyRetries: Route[] = [];
  const strayRequests: SeenRequest[] = [];
  /** The instant a `Retry-After` named on a route, and the client's waits ended by then. */
  const notBefore = new Map<Route, { readonly instant: number; readonly since: number }>();
  const faultQueues = new Map<Route, Answer[]>();
  const sockets = new Set<Socket>();
  const streams = new Set<ServerResponse>();
  const files = new Map<string, Buffer>();
  /** States each read walks through; the last one stays. */
  interface SandboxState {
    states: string[];
    deleted: boolean;
  }
  const sandboxes = new Map<string, SandboxState>();
  let connects = 0;
  let waits = 0;
  let stdinClosed = false;
  let processCount = 0;
  let sandboxCount = 0;
  const rand = mulberry32(seed);

  const envelope = (data: Record<string, unknown>): string =>
    JSON.stringify(
      script.envelopeExtras
        ? { request_id: "req-1", data: { ...data, server_note: "extra" }, status: "success", took_ms: 3 }
        : { status: "success", data },
    );

  function sendAnswer(res: ServerResponse, route: Route, answer: Answer): void {
    if (answer === "destroy") {
      res.socket?.destroy();
      return;
    }
    const headers: Record<string, string> = {};
    if (answer.retryAfter) {
      const { seconds, asDate } = answer.retryAfter;
      if (asDate) {
        // An HTTP-date has whole seconds: the instant is the next whole second after `seconds`.
        const at = Math.ceil((Date.now() + seconds * 1000) / 1000) * 1000;
        headers["retry-after"] = new Date(at).toUTCString();
        notBefore.set(route, { instant: at, since: retryWaits?.mark() ?? 0 });
      } else {
        headers["retry-after"] = String(seconds);
        notBefore.set(route, { instant: Date.now() + seconds * 1000, since: retryWaits?.mark() ?? 0 });
      }
    }
    if (answer.location !== undefined) headers.location = answer.location;
    if (answer.body !== undefined) headers["content-type"] = answer.contentType ?? "text/plain";
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  }

  function json(res: ServerResponse, status: number, data: Record<string, unknown>): void {
    const body = envelope(data);
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(body);
  }

  async function writePieces(res: ServerResponse, text: string, framing: Framing): Promise<void> {
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

  async function stream(req: IncomingMessage, res: ServerResponse, after: number): Promise<void> {
    const plan = script.connect?.(connects, after) ?? {};
    if (plan.answer) return sendAnswer(res, "process.connect", plan.answer);
    if (plan.rawBody !== undefined) {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(plan.rawBody);
      return;
    }
    const framing = plan.framing ?? {};
    const eol = framing.lineEnding ?? "\n";
    const newest = script.frames.length;
    const from = plan.from ?? after + 1;
    const until = Math.min(plan.until ?? newest, newest);
    const lines: string[] = [];
    for (let i = 0; i < (plan.leadingHeartbeats ?? 0); i++) lines.push('{"type":"heartbeat"}');
    for (let seq = Math.max(1, from); seq <= until; seq++) {
      lines.push(dataFrameJson(seq, script.frames[seq - 1]!, framing.extraFields === true, rand));
      if (framing.unknownFrames) lines.push(`{"type":"progress","percent":${seq},"extra":{"a":"ü"}}`);
      if (plan.heartbeatEvery && seq % plan.heartbeatEvery === 0)
        lines.push(
          framing.extraFields ? '{"type":"heartbeat","ts":"2026-01-01T00:00:00Z"}' : '{"type":"heartbeat"}',
        );
    }
    if (plan.errorFrame !== undefined) lines.push(JSON.stringify({ type: "error", error: plan.errorFrame }));
    const sendExit = plan.errorFrame === undefined && (plan.exit ?? until >= newest);
    if (sendExit) lines.push(exitJson(script.exit, framing.extraFields === true));
    let text = lines.map((line) => (framing.blankLines ? `${line}${eol}  ${eol}` : `${line}${eol}`)).join("");
    if (framing.trailingNewline === false && text.endsWith(eol)) text = text.slice(0, -eol.length);
    if (plan.cutMidLine) text += '{"type":"data","seq":';

    const headers: Record<string, string | number> = { "content-type": "application/x-ndjson" };
    const bodyMode = framing.body ?? "chunked";
    if (
      bodyMode === "length" &&
      plan.end !== "stall" &&
      plan.idleHeartbeats === undefined &&
      plan.trickleMs === undefined
    )
      headers["content-length"] = Buffer.byteLength(text);
    if (bodyMode === "close") res.useChunkedEncodingByDefault = false;
    if (framing.closeConnection) headers.connection = "close";
    streams.add(res);
    res.on("close", () => streams.delete(res));
    res.writeHead(200, headers);
    res.flushHeaders();
    if (plan.quietMs) await delay(plan.quietMs);
    await writePieces(res, text, framing);
    if (plan.idleHeartbeats) {
      const stop = Date.now() + plan.idleHeartbeats.forMs;
      while (Date.now() < stop && !res.destroyed) {
        await delay(plan.idleHeartbeats.intervalMs);
        res.write(`{"type":"heartbeat"}${eol}`);
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
    void req;
  }

  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (chunk: Buffer) => parts.push(chunk));
    req.on("end", () => {
      void handle(req, res, Buffer.concat(parts)).catch(() => res.destroy());
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = req.method ?? "GET";
    const { route, ids } = routeOf(method, url.pathname);
    const key = typeof req.headers["x-api-key"] === "string" ? req.headers["x-api-key"] : undefined;
    const entry: SeenRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      route,
      key,
      accept: req.headers.accept,
      body,
    };
    seen.push(entry);
    if (route === "unknown") {
      strayRequests.push(entry);
      res.writeHead(404);
      res.end();
      return;
    }
    if (key !== KEY) {
      res.writeHead(401);
      res.end();
      return;
    }
    const named = notBefore.get(route);
    if (named !== undefined) {
      notBefore.delete(route);
      // Not the arrival time against the instant: a client's timer can fire a little before the
      // wall-clock instant it aimed at (Node starts it from the event loop's cached time), by as
      // much as the machine's load delayed that loop. What the client meant to wait for is exact.
      if (retryWaits !== undefined && !retryWaits.waitedUntil(named.instant, named.since))
        earlyRetries.push(route);
    }
    if (route === "process.connect") connects++;
    if (route === "process.wait") waits++;
    const queued = faultQueues.get(route);
    const fault = queued?.shift();
    if (fault !== undefined) return sendAnswer(res, route, fault);

    const [sandboxId = "", processId = ""] = ids;
    switch (route) {
      case "sandbox.create": {
        // The service's catalog, from its naming scheme: `s-<vcpus>vcpu-<memory>(mb|gb)`.
        const shape = parseJson(body)?.shape;
        if (typeof shape !== "string" || !/^s-\d+(\.\d+)?vcpu-\d+(mb|gb)$/.test(shape)) {
          return json(res, 400, { error: "unknown shape" });
        }
        sandboxCount++;
        const id = `sb-${seed}-${sandboxCount}`;
        // Asynchronous states: the first read still shows it starting.
        sandboxes.set(id, { states: ["creating", "running"], deleted: false });
        return json(res, 201, {
          id: script.sandboxId === undefined ? id : script.sandboxId,
          status: "creating",
        });
      }
      case "sandbox.get": {
        const sandbox = sandboxes.get(sandboxId);
        if (!sandbox || sandbox.deleted) {
          res.writeHead(404);
          res.end();
          return;
        }
        const status = sandbox.states.length > 1 ? sandbox.states.shift()! : sandbox.states[0]!;
        return json(res, 200, { id: sandboxId, status, size: "small" });
      }
      case "sandbox.pause":
      case "sandbox.resume": {
        const sandbox = sandboxes.get(sandboxId);
        if (!sandbox) {
          res.writeHead(404);
          res.end();
          return;
        }
        // A read right after the accepted POST still shows the old state (spec weak point 7).
        sandbox.states =
          route === "sandbox.pause" ? ["running", "pausing", "paused"] : ["paused", "resuming", "running"];
        return json(res, 202, {});
      }
      case "sandbox.delete": {
        const sandbox = sandboxes.get(sandboxId);
        if (sandbox) sandbox.deleted = true;
        res.writeHead(204);
        res.end();
        return;
      }
      case "sandbox.exec": {
        // What a plugin's buffered commands do here: `rm -f -- path` forgets an upload, and
        // `cat path` prints one (exit 1 when it is missing), as upstream reads its lease marker.
        const command = parseJson(body);
        const args = Array.isArray(command?.args) ? command.args : [];
        const file = `${sandboxId}:${String(args.at(-1))}`;
        if (command?.cmd === "/bin/rm") files.delete(file);
        if (command?.cmd === "/bin/cat") {
          const content = files.get(file);
          return json(res, 200, {
            result: content
              ? { exit_code: 0, stdout: content.toString("utf8"), stderr: "" }
              : { exit_code: 1, stdout: "", stderr: "cat: No such file or directory\n" },
          });
        }
        return json(res, 200, { result: { exit_code: 0, stdout: "", stderr: "" } });
      }
      case "files.put":
        files.set(`${sandboxId}:${url.searchParams.get("path")}`, body);
        return json(res, 200, {});
      case "files.get": {
        const file = files.get(`${sandboxId}:${url.searchParams.get("path")}`);
        if (!file) {
          res.writeHead(404);
          res.end();
          return;
        }
        res.writeHead(200, { "content-type": "application/octet-stream", "content-length": file.length });
        res.end(file);
        return;
      }
      case "process.create": {
        processCount++;
        connects = 0;
        waits = 0;
        stdinClosed = false;
        const id = script.processId === undefined ? `p_${seed}-${processCount}` : script.processId;
        return json(res, 201, { process_id: id });
      }
      case "process.stdinClose":
        if (stdinClosed) {
          res.writeHead(409);
          res.end();
          return;
        }
        stdinClosed = true;
        return json(res, 200, {});
      case "process.connect":
        return stream(req, res, Number(url.searchParams.get("after") ?? "0"));
      case "process.wait": {
        const custom = script.wait?.(waits);
        if (custom !== undefined) {
          res.writeHead(custom.status, { "content-type": "application/json" });
          res.end(custom.body);
          return;
        }
        return json(res, 200, {
          exit_code: script.exit.exitCode,
          signal: script.exit.signal,
          ...(script.newestSeq === null
            ? {}
            : { output: { newest_seq: script.newestSeq ?? script.frames.length, oldest_seq: 1 } }),
        });
      }
      case "process.kill":
        void processId;
        return json(res, 200, { tree_exited: true, killed: 1 });
    }
  }

  server.on("connection", (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey: KEY,
    seen,
    earlyRetries,
    strayRequests,
    openStreams: () => streams.size,
    openSockets: () => sockets.size,
    kills: () => seen.filter((r) => r.route === "process.kill"),
    count: (route) => seen.filter((r) => r.route === route).length,
    filePaths: (sandboxId) =>
      [...files.keys()]
        .filter((key) => key.startsWith(`${sandboxId}:`))
        .map((key) => key.slice(sandboxId.length + 1)),
    deleteBehindPlugin(sandboxId, forget) {
      if (forget) sandboxes.delete(sandboxId);
      else sandboxes.set(sandboxId, { states: ["destroyed"], deleted: false });
    },
    use(next) {
      script = next;
      faultQueues.clear();
      for (const [route, answers] of Object.entries(next.faults ?? {}))
        faultQueues.set(route as Route, [...(answers ?? [])]);
      notBefore.clear();
    },
    reset() {
      seen.length = 0;
      earlyRetries.length = 0;
      strayRequests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of streams) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
