import { connect, createServer, type Server, type Socket } from "node:net";
import { forwardInto, relayReadsInto } from "../../proxy/relay-reads.js";
import { endLeg, followLeg } from "../../proxy/tunnel-legs.js";

export interface RelayServer {
  /** Not listening yet: the caller listens, and starts the program once it does. */
  readonly server: Server;
  /** Stops accepting and destroys every open leg. */
  close(): void;
}

/**
 * A TCP server whose every connection is relayed to the host proxy's Unix socket.
 * Proxy-to-program bytes are relayed from a per-connection read buffer, program-to-proxy
 * chunks forwarded as they come: the host proxy's own tunnel functions.
 */
export function createRelayServer(socketPath: string): RelayServer {
  const sockets = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    const upstream: Socket = connect({
      path: socketPath,
      allowHalfOpen: true,
      onread: relayReadsInto(client, () => upstream),
    });
    sockets.add(client);
    sockets.add(upstream);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", (hadError) => {
      sockets.delete(client);
      followLeg(upstream, hadError);
    });
    upstream.on("close", (hadError) => {
      sockets.delete(upstream);
      followLeg(client, hadError);
    });
    upstream.on("end", () => endLeg(client));
    forwardInto(client, upstream);
  });
  return {
    server,
    close() {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}
