import { once } from "node:events";
import WebSocket, { WebSocketServer } from "ws";
import type { DurableEndpoint } from "../durable-options.js";

/** The protocol's bound on one message; the library refuses larger ones. */
export const MAX_FRAME_BYTES = 1024 * 1024;

export interface Dialer {
  /** The next WebSocket to the server: dialled, or the next one the server opens to us. */
  next(): Promise<WebSocket>;
  close(): Promise<void>;
}

/** Connect mode dials the URL (masked text frames, no compression); listen mode accepts the server's connections. */
export async function createDialer(endpoint: DurableEndpoint): Promise<Dialer> {
  if (endpoint.mode === "connect") {
    return {
      async next() {
        const socket = new WebSocket(endpoint.url, {
          maxPayload: MAX_FRAME_BYTES,
          perMessageDeflate: false,
          handshakeTimeout: 5_000,
          ...(endpoint.caBundle === null ? {} : { ca: endpoint.caBundle }),
        });
        const opened = once(socket, "open");
        const failed = once(socket, "error").then(([error]) => {
          throw error;
        });
        opened.catch(() => undefined);
        failed.catch(() => undefined);
        await Promise.race([opened, failed]);
        return socket;
      },
      close: async () => undefined,
    };
  }
  const server = new WebSocketServer({
    host: endpoint.address,
    port: endpoint.port,
    path: endpoint.path,
    maxPayload: MAX_FRAME_BYTES,
    perMessageDeflate: false,
  });
  await once(server, "listening");
  const waiting: ((socket: WebSocket) => void)[] = [];
  const arrived: WebSocket[] = [];
  server.on("connection", (socket) => {
    const waiter = waiting.shift();
    if (waiter !== undefined) waiter(socket);
    else arrived.push(socket);
  });
  return {
    next: async () => arrived.shift() ?? (await new Promise<WebSocket>((resolve) => waiting.push(resolve))),
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
