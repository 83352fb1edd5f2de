import { type AddressInfo, createServer, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  closeAll,
  openTunnel,
  proxyRequest,
  readBytes,
  startHttpUpstream,
  startProxy,
} from "./proxy-support.js";

afterEach(closeAll);

/** A loopback TCP server that answers every connection with fixed raw bytes (or nothing). */
async function rawUpstream(reply: ((socket: Socket) => void) | null) {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    if (reply) socket.once("data", () => reply(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const UPSTREAM_ERROR =
  '{"error":{"code":"upstream_error","message":"Paperclip sandbox proxy could not reach the upstream server."}}\n';

describe("a hostile or broken upstream cannot hurt the host process", () => {
  it.each([
    [
      "a status code Node cannot send on (099)",
      "HTTP/1.1 099 Weird\r\nContent-Length: 2\r\n\r\nok",
      "upstream_invalid_response",
    ],
    ["bytes that are not HTTP", "SSH-2.0-OpenSSH_9.6\r\n\r\n", "upstream_error"],
    [
      "Content-Length together with Transfer-Encoding",
      "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "upstream_error",
    ],
    [
      "a response head over 16 KiB",
      `HTTP/1.1 200 OK\r\nX-Big: ${"b".repeat(20_000)}\r\n\r\n`,
      "upstream_error",
    ],
    [
      "an unsolicited 101 Switching Protocols",
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: evil\r\nConnection: Upgrade\r\n\r\n",
      "upstream_invalid_response",
    ],
  ])("answers 502 to %s", async (_name, bytes, reason) => {
    const upstream = await rawUpstream((socket) => socket.end(bytes));
    try {
      const proxy = await startProxy({ allowlist: [`127.0.0.1:${upstream.port}`], trustedUrls: [] });
      const response = await proxyRequest(proxy.socketPath, `http://127.0.0.1:${upstream.port}/`);
      expect(response).toMatchObject({ status: 502, body: UPSTREAM_ERROR });
      expect(response.headers["x-proxy-error"]).toBe(reason);
      await expect.poll(() => proxy.stats().activeConnections === 0, { timeout: 15_000 }).toBe(true);
    } finally {
      await upstream.close();
    }
  });

  it("cuts the client off when the upstream sends less body than it announced", async () => {
    const upstream = await rawUpstream((socket) =>
      socket.end("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf"),
    );
    try {
      const proxy = await startProxy({ allowlist: [`127.0.0.1:${upstream.port}`], trustedUrls: [] });
      await expect(proxyRequest(proxy.socketPath, `http://127.0.0.1:${upstream.port}/`)).rejects.toThrow();
      const good = await startHttpUpstream();
      const second = await startProxy({ allowlist: [`127.0.0.1:${good.port}`], trustedUrls: [] });
      expect((await proxyRequest(second.socketPath, `http://127.0.0.1:${good.port}/`)).status).toBe(200);
    } finally {
      await upstream.close();
    }
  });

  it("answers 502 when the upstream accepts but never answers within tunnelIdleMs", async () => {
    const upstream = await rawUpstream(null);
    try {
      const proxy = await startProxy({
        allowlist: [`127.0.0.1:${upstream.port}`],
        trustedUrls: [],
        limits: { tunnelIdleMs: 200 },
      });
      const response = await proxyRequest(proxy.socketPath, `http://127.0.0.1:${upstream.port}/`);
      expect(response).toMatchObject({ status: 502, body: UPSTREAM_ERROR });
    } finally {
      await upstream.close();
    }
  });

  it("delivers a server-first banner after the 200 line of a tunnel", async () => {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.write("220 banner first\r\n");
      socket.pipe(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const proxy = await startProxy({ allowlist: [`127.0.0.1:${port}`], trustedUrls: [] });
      const { socket, statusLine, rest } = await openTunnel(proxy.socketPath, `127.0.0.1:${port}`);
      expect(statusLine).toBe("HTTP/1.1 200 Connection Established");
      expect((await readBytes(socket, 18, rest)).toString()).toBe("220 banner first\r\n");
      socket.destroy();
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
