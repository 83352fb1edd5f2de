import type { Socket } from "node:net";

/** How long a refused client may take to read the answer and close its side. */
const REFUSAL_LINGER_MS = 2_000;

/**
 * Sends a final raw response and closes the socket. The socket is destroyed
 * outright only if the peer does not close within the linger time, so the
 * peer reads the whole answer instead of a reset. `drain` discards anything
 * else the peer sends meanwhile; only safe once no HTTP parser owns the socket.
 */
export function refuseSocket(socket: Socket, response: string, drain: boolean): void {
  if (socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  if (drain) socket.resume();
  socket.end(response);
  const timer = setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}
