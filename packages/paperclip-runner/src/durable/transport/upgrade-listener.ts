import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type WebSocket from "ws";
import { WebSocketServer } from "ws";
import { MAX_CHALLENGE_BYTES } from "./handshake-inbox.js";

/**
 * Listen mode: TCP connections whose WebSocket upgrade has not completed. Anyone who reaches the
 * port opens them, and none counts among the connections waiting to be taken or handshaking
 * until its upgrade is done; past the bound the oldest is closed, as those bounds close theirs,
 * so a flood keeps neither descriptors nor the newest connection (the server's) out.
 */
export const MAX_PENDING_UPGRADES = 64;

/**
 * How long a connection may take to send its upgrade request: the 5 s a silent peer gets at each
 * step of the handshake. Node's own bound (its 60 s header timeout) kept a flood's sockets open
 * for a minute each.
 */
export const UPGRADE_REQUEST_TIMEOUT_MS = 5_000;

/**
 * What a peer may send before its challenge proves it the server: the largest challenge read,
 * with room for frame headers. The library buffers a message's fragments up to the 4 MiB frame
 * bound before the handshake sees any of it: 64 handshaking impostors held over 200 MiB.
 */
export const MAX_BYTES_BEFORE_PROOF = 2 * MAX_CHALLENGE_BYTES;

/** Lifts the byte bound of each upgraded connection whose peer has not proven itself yet. */
const boundsBeforeProof = new WeakMap<WebSocket, () => void>();

/** The peer of `socket` proved it holds the credential: what it sends next is no longer counted. */
export function releaseBoundBeforeProof(socket: WebSocket): void {
  boundsBeforeProof.get(socket)?.();
  boundsBeforeProof.delete(socket);
}

export interface UpgradeListener {
  readonly sockets: WebSocketServer;
  close(): Promise<void>;
}

/** A WebSocket server on `host:port` at `path`, bounding the connections that have not upgraded yet. */
export async function listenForUpgrades(options: {
  readonly host: string;
  readonly port: number;
  readonly path: string;
  readonly maxPayload: number;
}): Promise<UpgradeListener> {
  const http = createServer(refuseRequest);
  // Each with its deadline; a Map iterates in insertion order, so the first is the oldest.
  const pending = new Map<Socket, NodeJS.Timeout>();
  const settle = (socket: Socket): void => {
    clearTimeout(pending.get(socket));
    pending.delete(socket);
  };
  http.on("connection", (socket: Socket) => {
    // From the connection's start, not an idle timeout: a byte every few seconds must not extend it.
    pending.set(
      socket,
      setTimeout(() => socket.destroy(), UPGRADE_REQUEST_TIMEOUT_MS),
    );
    socket.once("close", () => settle(socket));
    if (pending.size > MAX_PENDING_UPGRADES) {
      const oldest = pending.keys().next().value as Socket;
      settle(oldest);
      oldest.destroy();
    }
  });
  // Registered before the WebSocketServer's own listener, so it runs first.
  http.on("upgrade", (_request: IncomingMessage, socket: Socket) => settle(socket));
  const sockets = new WebSocketServer({
    server: http,
    path: options.path,
    maxPayload: options.maxPayload,
    perMessageDeflate: false,
  });
  // Registered before any other listener, so the bound is on before the connection is handed out.
  sockets.on("connection", (socket: WebSocket, request: IncomingMessage) => {
    const raw = request.socket;
    let received = 0;
    const count = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > MAX_BYTES_BEFORE_PROOF) raw.destroy();
    };
    raw.on("data", count);
    boundsBeforeProof.set(socket, () => raw.off("data", count));
  });
  http.listen(options.port, options.host);
  // Rejects with the error (EADDRINUSE...) if one comes first.
  await once(http, "listening");
  return { sockets, close: () => closeListener(http, sockets) };
}

/** A plain HTTP request is not a WebSocket: answered as `ws` answers it, and the connection closed. */
function refuseRequest(_request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(426, { "Content-Type": "text/plain", Connection: "close" });
  response.end("Upgrade Required");
}

async function closeListener(http: Server, sockets: WebSocketServer): Promise<void> {
  for (const client of sockets.clients) client.terminate();
  sockets.close();
  const closed = new Promise<void>((resolve) => http.close(() => resolve()));
  http.closeAllConnections();
  await closed;
}
