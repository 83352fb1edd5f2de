import { once } from "node:events";
import WebSocket from "ws";
import type { DurableEndpoint } from "../durable-options.js";
import { listenForUpgrades } from "./upgrade-listener.js";

/**
 * The bound on one message from the server; the library refuses larger ones (and the connection
 * is lost). The protocol bounds a frame at 1 MiB, and so does the server on what it reads, but
 * its control plane journals a command of up to 1 MiB − 4 KiB of JSON and sends it sealed in hex,
 * twice as long: a 1 MiB bound lost every command over about 512 KiB (a long prompt), for good
 * (the server refuses the reconnection, and upstream's runner never answers such a command).
 * 4 MiB takes the largest command the server journals, and a welcome that carries it.
 */
export const MAX_INBOUND_FRAME_BYTES = 4 * 1024 * 1024;

/**
 * Listen mode: connections accepted and not yet taken. Anyone who reaches the port can open
 * them (on loopback, any local user); past the bound the oldest is closed, so a flood can
 * neither grow the daemon's memory and descriptors nor keep the newest connection out.
 */
export const MAX_WAITING_CONNECTIONS = 64;

export interface Dialer {
  /**
   * The next WebSocket to the server: dialled, or the next one opened to us. Aborting `signal`
   * closes a socket still opening, or withdraws a listen-mode wait, so a connection arriving
   * later is left for the next taker.
   */
  next(signal?: AbortSignal): Promise<WebSocket>;
  close(): Promise<void>;
}

/** Connect mode dials the URL (masked text frames, no compression); listen mode accepts the server's connections. */
export async function createDialer(endpoint: DurableEndpoint): Promise<Dialer> {
  if (endpoint.mode === "connect") {
    return {
      async next(signal) {
        signal?.throwIfAborted();
        const socket = new WebSocket(endpoint.url, {
          maxPayload: MAX_INBOUND_FRAME_BYTES,
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
        // Withdrawn while it opens: the half-open socket is closed, not left to the server.
        const withdraw = (): void => socket.terminate();
        signal?.addEventListener("abort", withdraw, { once: true });
        try {
          await Promise.race([opened, failed]);
        } finally {
          signal?.removeEventListener("abort", withdraw);
        }
        if (signal?.aborted) {
          socket.terminate();
          signal.throwIfAborted();
        }
        return socket;
      },
      close: async () => undefined,
    };
  }
  const listener = await listenForUpgrades({
    host: endpoint.address,
    port: endpoint.port,
    path: endpoint.path,
    maxPayload: MAX_INBOUND_FRAME_BYTES,
  });
  const waiting: ((socket: WebSocket) => void)[] = [];
  const arrived: WebSocket[] = [];
  listener.sockets.on("connection", (socket) => {
    const waiter = waiting.shift();
    if (waiter !== undefined) {
      waiter(socket);
      return;
    }
    // Nothing is read from a connection until it is taken: whoever opened it may stream
    // frames at it, and the kernel's buffer, not the daemon's parser, is what they fill.
    socket.pause();
    arrived.push(socket);
    if (arrived.length > MAX_WAITING_CONNECTIONS) arrived.shift()?.terminate();
  });
  const take = (): WebSocket | undefined => {
    const socket = arrived.shift();
    socket?.resume();
    return socket;
  };
  return {
    next: async (signal) =>
      take() ??
      (await new Promise<WebSocket>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const waiter = (socket: WebSocket): void => {
          signal?.removeEventListener("abort", withdraw);
          resolve(socket);
        };
        const withdraw = (): void => {
          const index = waiting.indexOf(waiter);
          if (index >= 0) waiting.splice(index, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener("abort", withdraw, { once: true });
        waiting.push(waiter);
      })),
    close: () => listener.close(),
  };
}
