/**
 * A second, deliberately different CreateOS-compatible server, written from the spec's API
 * table only (no emulator code): processes are scripted frame journals, every answer can be
 * replaced per route, and each `connect` is shaped by a plan (framing, chunking, line
 * endings, body delimiting, heartbeats, drops, stalls). It records what the plugin sent.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { seededRandom, writeConnect } from "./independent-server-connect.js";
import { isSandboxRoute, type Reply, ScriptedSandboxes } from "./independent-server-sandboxes.js";
import type { Answer, Route, SeenRequest, ServerScript } from "./independent-server-script.js";
import { routeOf } from "./independent-server-wire.js";
import type { RetryWitness } from "./timer-tracker.js";

const KEY = "independent-key-7f3a";

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
  const sandboxes = new ScriptedSandboxes(seed);
  let connects = 0;
  let waits = 0;
  let stdinClosed = false;
  let processCount = 0;
  const rand = seededRandom(seed);

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

  function reply(res: ServerResponse, answer: Reply): void {
    if (answer.data !== undefined) {
      json(res, answer.status, answer.data);
      return;
    }
    if (answer.bytes === undefined) res.writeHead(answer.status);
    else
      res.writeHead(answer.status, {
        "content-type": "application/octet-stream",
        "content-length": answer.bytes.length,
      });
    res.end(answer.bytes);
  }

  async function stream(res: ServerResponse, after: number): Promise<void> {
    const plan = script.connect?.(connects, after) ?? {};
    if (plan.answer) return sendAnswer(res, "process.connect", plan.answer);
    streams.add(res);
    res.on("close", () => streams.delete(res));
    await writeConnect(res, script, plan, after, rand);
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
    if (isSandboxRoute(route)) {
      const filePath = url.searchParams.get("path");
      return reply(res, sandboxes.answer({ route, sandboxId, filePath, body, idOverride: script.sandboxId }));
    }
    switch (route) {
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
        return stream(res, Number(url.searchParams.get("after") ?? "0"));
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
    filePaths: (sandboxId) => sandboxes.filePaths(sandboxId),
    deleteBehindPlugin: (sandboxId, forget) => sandboxes.deleteBehindPlugin(sandboxId, forget),
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
