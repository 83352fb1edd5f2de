import { createServer, type Socket } from "node:net";
import { onTestFinished } from "vitest";

/** What a raw server has seen of one request: its head, as sent. */
export interface RawRequest {
  readonly head: string;
}

/**
 * A loopback TCP server that answers each request's head with whatever bytes the test
 * writes, so that a test can send what `node:http` would never let a server send: a
 * `101`, a status line that never ends, an absurd chunk size. Closed, with every socket,
 * when the test finishes.
 */
export async function rawWireServerForTest(answer: (socket: Socket, request: RawRequest) => void) {
  const sockets = new Set<Socket>();
  const seen: RawRequest[] = [];
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let head = "";
    socket.on("data", function onData(chunk: Buffer) {
      head += chunk.toString("latin1");
      const end = head.indexOf("\r\n\r\n");
      if (end === -1) return;
      socket.off("data", onData);
      // Whatever follows the head (a body) is read and dropped.
      socket.resume();
      const request = { head: head.slice(0, end) };
      seen.push(request);
      answer(socket, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    /** Sockets still open: a client that dropped its connection left none. */
    get openSockets(): number {
      return sockets.size;
    },
  };
}

/** Writes `text` every `everyMs` until the socket closes: a server that never finishes. */
export function dripForever(socket: Socket, text: string, everyMs: number): void {
  const timer = setInterval(() => socket.write(text), everyMs);
  socket.once("close", () => clearInterval(timer));
}
