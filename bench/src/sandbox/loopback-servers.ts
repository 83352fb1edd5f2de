// The loopback servers the in-sandbox client reaches through the tunnels.
import { type AddressInfo, createServer, type Server } from "node:net";

export const MIB = 1024 * 1024;

/** Listens on an ephemeral loopback port; resolves to the port. */
export async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** Loopback source: writes `bytes` to each connection, honouring backpressure. */
export function sourceServer(bytes: number): Server {
  const chunk = Buffer.alloc(MIB, 0x61);
  return createServer((socket) => {
    socket.on("error", () => {});
    let left = bytes;
    const pump = () => {
      while (left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!socket.write(piece)) {
          socket.once("drain", pump);
          return;
        }
      }
    };
    pump();
  });
}

/** Loopback echo: every byte a connection sends comes back. */
export function echoServer(): Server {
  return createServer((socket) => {
    socket.on("error", () => {});
    socket.pipe(socket);
  });
}
