import { readFile } from "node:fs/promises";
import net from "node:net";
import tls from "node:tls";
import type { CertificateFiles } from "@paperclipai/test-support";

/** A TLS listener on loopback, reachable at `url`. */
export interface TlsFront {
  /** `wss://127.0.0.1:<port>`: what a runner dials. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A server's public TLS front, as a deployment puts one before the Paperclip server: it
 * terminates TLS with `certificate` and relays the bytes to `upstreamPort()` on loopback, asked
 * per connection, as the server's port is known only once the server (which needs the front's
 * URL in its environment) has started.
 */
export async function startTlsFront(
  certificate: CertificateFiles,
  upstreamPort: () => number,
): Promise<TlsFront> {
  const sockets = new Set<net.Socket>();
  const server = tls.createServer(
    { key: await readFile(certificate.key), cert: await readFile(certificate.cert) },
    (client) => {
      const upstream = net.connect(upstreamPort(), "127.0.0.1");
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `wss://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
