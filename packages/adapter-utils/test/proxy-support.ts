import { createCipheriv, createHash } from "node:crypto";
import {
  createServer as createHttpServer,
  type IncomingMessage,
  request,
  type ServerResponse,
} from "node:http";
import {
  type AddressInfo,
  connect,
  createServer as createNetServer,
  type Server,
  type Socket,
} from "node:net";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import {
  type NetworkResolver,
  type SandboxNetworkProxy,
  type SandboxNetworkProxyOptions,
  startSandboxNetworkProxy,
} from "../src/proxy/index.js";

/** Everything a test started, closed in reverse order by `closeAll`. */
const cleanups: (() => Promise<void>)[] = [];

export async function closeAll(): Promise<void> {
  while (cleanups.length > 0) await cleanups.pop()!();
}

/**
 * A socket path in a directory removed when the current test finishes. Under /tmp: short,
 * so it stays under 107 bytes whatever `TMPDIR` the suite runs with.
 */
export function tempSocketPath(): string {
  return path.join(tempDirForTest("pc-proxy-test-", { base: "/tmp" }), "proxy.sock");
}

/** A proxy on `socketPath` (by default `tempSocketPath()`, so a test's own), closed by `closeAll`. */
export async function startProxy(
  options: Omit<SandboxNetworkProxyOptions, "socketPath"> & { socketPath?: string },
): Promise<SandboxNetworkProxy> {
  const proxy = await startSandboxNetworkProxy({
    ...options,
    socketPath: options.socketPath ?? tempSocketPath(),
  });
  cleanups.push(() => proxy.close());
  return proxy;
}

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  );
  return (server.address() as AddressInfo).port;
}

export interface RecordedRequest {
  method: string;
  url: string;
  rawHeaders: string[];
  body: string;
}

/** A real loopback HTTP server that records what it receives. */
export async function startHttpUpstream(
  handler: (request: IncomingMessage, response: ServerResponse, body: string) => void = (_q, r) =>
    r.end("allowed-response"),
  host = "127.0.0.1",
) {
  const received: RecordedRequest[] = [];
  const server = createHttpServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", rawHeaders: req.rawHeaders, body });
      handler(req, res, body);
    });
  });
  const port = await listen(server, host);
  return { port, received, server };
}

/** A real loopback TCP echo server; it ends its side when the client ends. */
export async function startEchoServer(host = "127.0.0.1") {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createNetServer({ allowHalfOpen: true }, (socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    socket.pipe(socket);
  });
  const port = await listen(server, host);
  const destroyAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return { port, server, open: () => sockets.size, accepted: () => accepted, destroyAll };
}

/**
 * A loopback TCP server that sends `payload` to each connection, then its FIN.
 * With `pieceBytes` it trickles the payload in pieces of that size, one per
 * event-loop turn, so the reader sees many small chunks.
 */
export async function startSourceServer(payload: Buffer, options: { pieceBytes?: number | undefined } = {}) {
  const server = createNetServer({ allowHalfOpen: true }, (socket) => {
    socket.on("error", () => {});
    const piece = options.pieceBytes;
    if (!piece) {
      socket.end(payload);
      return;
    }
    let offset = 0;
    const next = () => {
      if (socket.destroyed) return;
      if (offset >= payload.length) {
        socket.end();
        return;
      }
      socket.write(payload.subarray(offset, offset + piece));
      offset += piece;
      setImmediate(next);
    };
    next();
  });
  return { port: await listen(server, "127.0.0.1"), server };
}

/**
 * `length` bytes that look random but are the same on every run (AES-256-CTR over zeros, keyed
 * by `seed`): hostile input a failure can be replayed from.
 */
export function seededBytes(length: number, seed: number): Buffer {
  const key = createHash("sha256").update(`paperclip-proxy-test-${seed}`).digest();
  return createCipheriv("aes-256-ctr", key, Buffer.alloc(16)).update(Buffer.alloc(length));
}

export interface ProxyResponse {
  status: number;
  statusMessage: string;
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
  body: string;
}

/** One plain-HTTP proxy request over the Unix socket, as an HTTP client with a proxy sends it. */
export function proxyRequest(
  socketPath: string,
  url: string,
  init: { method?: string; headers?: Record<string, string> | string[]; body?: string } = {},
): Promise<ProxyResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { socketPath, path: url, method: init.method ?? "GET", headers: init.headers ?? {}, agent: false },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            statusMessage: response.statusMessage ?? "",
            headers: response.headers,
            rawHeaders: response.rawHeaders,
            body,
          }),
        );
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(init.body);
  });
}

/** Writes raw bytes, optionally half-closes, and collects everything until the proxy closes. */
export function rawExchange(
  socketPath: string,
  payload: string | Buffer,
  options: { end?: boolean; timeoutMs?: number } = {},
): Promise<{ response: string; error?: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    const chunks: Buffer[] = [];
    let error: string | undefined;
    const timer = setTimeout(() => {
      socket.destroy();
      finish(true);
    }, options.timeoutMs ?? 5_000);
    let done = false;
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const response = Buffer.concat(chunks).toString("latin1");
      resolve(error === undefined ? { response, timedOut } : { response, error, timedOut });
    };
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (caught: NodeJS.ErrnoException) => {
      error = caught.code ?? caught.message;
    });
    socket.on("close", () => finish(false));
    socket.on("connect", () => {
      if (options.end === false) socket.write(payload);
      else socket.end(payload);
    });
  });
}

/** Opens a CONNECT tunnel and resolves once the proxy's answer head is read. */
export function openTunnel(
  socketPath: string,
  target: string,
  head: Buffer = Buffer.alloc(0),
): Promise<{ socket: Socket; statusLine: string; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath, () => {
      socket.write(
        Buffer.concat([Buffer.from(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`), head]),
      );
    });
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf("\r\n\r\n");
      if (end === -1) return;
      socket.off("data", onData);
      socket.pause();
      const statusLine = buffered.subarray(0, buffered.indexOf("\r\n")).toString("latin1");
      resolve({ socket, statusLine, rest: buffered.subarray(end + 4) });
    };
    socket.on("data", onData);
    socket.on("error", reject);
  });
}

/** Reads from a socket until `length` bytes arrived (or it ends). */
export function readBytes(
  socket: Socket,
  length: number,
  already: Buffer = Buffer.alloc(0),
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks = [already];
    let total = already.length;
    if (total >= length) {
      resolve(Buffer.concat(chunks));
      return;
    }
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= length) {
        cleanup();
        resolve(Buffer.concat(chunks));
      }
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const cleanup = () => {
      socket.off("data", onData);
      socket.off("end", onEnd);
      socket.off("error", reject);
    };
    socket.on("data", onData);
    socket.on("end", onEnd);
    socket.on("error", reject);
    socket.resume();
  });
}

export function headerPairs(rawHeaders: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) pairs.push([rawHeaders[i]!, rawHeaders[i + 1]!]);
  return pairs;
}

/** A resolver answering from `table` (ENOTFOUND for any other name); `asked` lists every name it was asked, in order. */
export function resolverFrom(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolver: NetworkResolver = async (hostname) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }) as const);
  };
  return { resolver, asked };
}
