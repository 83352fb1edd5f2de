import type { Socket } from "node:net";

const held = new WeakSet<Socket>();

/**
 * Puts a native bridge connection's id first on `socket` but holds it back (the socket is
 * corked) until the proxy first answers: the id then leaves in the same write as that
 * answer. Written on its own at accept, it woke the connection's bridge thread once more
 * per tunnel, for 8 bytes, while 200 tunnels were being set up at once. Any answer still
 * comes after the id: it is the first chunk in the socket's buffer.
 */
export function holdConnectionId(socket: Socket, id: Buffer): void {
  socket.cork();
  socket.write(id);
  held.add(socket);
}

/**
 * Sends a held id with whatever the proxy wrote since; a no-op for any other socket. Every
 * path that answers releases it, or ends the socket (`end()` uncorks fully); left corked,
 * an answer would wait.
 */
export function releaseConnectionId(socket: Socket): void {
  if (held.delete(socket)) socket.uncork();
}
