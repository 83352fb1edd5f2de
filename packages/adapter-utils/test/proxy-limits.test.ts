import { readdirSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { NetworkDecision } from "../src/proxy/index.js";
import {
  closeAll,
  openTunnel,
  proxyRequest,
  rawExchange,
  readBytes,
  startEchoServer,
  startHttpUpstream,
  startProxy,
} from "./proxy-support.js";

afterEach(closeAll);

function connected(socketPath: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath, () => resolve(socket));
    socket.on("error", reject);
  });
}

/** This process's open descriptors: the proxy's sockets and the test's own. */
function openDescriptors(): number {
  return readdirSync("/proc/self/fd").length;
}

/**
 * A client that sends nothing and never closes its side (as a program can), resolved once the
 * proxy has ended or closed the connection: a refusal sends its answer and a FIN at once.
 */
function refusedButKeptOpen(socketPath: string): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ path: socketPath, allowHalfOpen: true });
    socket.on("error", () => {});
    socket.once("end", () => resolve(socket));
    socket.once("close", () => resolve(socket));
    socket.resume();
  });
}

describe("sandbox proxy limits", () => {
  it("refuses connections beyond maxConnections with a JSON 503 and accepts again once one closes", async () => {
    const upstream = await startHttpUpstream();
    const decisions: NetworkDecision[] = [];
    const proxy = await startProxy({
      allowlist: [`127.0.0.1:${upstream.port}`],
      trustedUrls: [],
      limits: { maxConnections: 2 },
      onNetworkDecision: (d) => decisions.push(d),
    });
    const held = [await connected(proxy.socketPath), await connected(proxy.socketPath)];
    await expect.poll(() => proxy.stats().activeConnections === 2, { timeout: 15_000 }).toBe(true);
    const refused = await rawExchange(
      proxy.socketPath,
      `GET http://127.0.0.1:${upstream.port}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(refused.response).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(refused.response).toContain("X-Proxy-Error: connection_limit\r\n");
    expect(refused.response).toContain(
      '{"error":{"code":"proxy_connection_limit","message":"Paperclip sandbox proxy connection limit reached."}}\n',
    );
    expect(upstream.received).toHaveLength(0);
    expect(decisions).toContainEqual({ decision: "deny", host: "", port: 0, reason: "connection_limit" });
    held[0]!.destroy();
    await expect.poll(() => proxy.stats().activeConnections === 1, { timeout: 15_000 }).toBe(true);
    const ok = await proxyRequest(proxy.socketPath, `http://127.0.0.1:${upstream.port}/`);
    expect(ok.status).toBe(200);
    held[1]!.destroy();
    expect(proxy.stats().connections).toBe(4);
  });

  it("keeps no more refused connections open than maxConnections, however many stay open", async () => {
    const proxy = await startProxy({
      allowlist: ["api.test"],
      trustedUrls: [],
      limits: { maxConnections: 4 },
    });
    const held = await Promise.all(Array.from({ length: 4 }, () => connected(proxy.socketPath)));
    await expect.poll(() => proxy.stats().activeConnections === 4, { timeout: 15_000 }).toBe(true);
    const before = openDescriptors();
    const flood = await Promise.all(Array.from({ length: 64 }, () => refusedButKeptOpen(proxy.socketPath)));
    // Each flood client is one descriptor of this process; the rest is the proxy's side of them.
    // On the old code every refusal waited for its client's FIN: 64 of them.
    expect(openDescriptors() - before - flood.length).toBeLessThanOrEqual(4);
    expect(proxy.stats().connections).toBe(68);
    for (const socket of [...held, ...flood]) socket.destroy();
    await expect.poll(() => proxy.stats().activeConnections === 0, { timeout: 15_000 }).toBe(true);
  });

  it("ends the upstream request of a pipelined answer that never had its turn, and gives its place back", async () => {
    let answering = false;
    const upstream = await startHttpUpstream((_request, response) => {
      if (answering) response.end("later");
    });
    const open = new Set<Socket>();
    upstream.server.on("connection", (socket: Socket) => {
      open.add(socket);
      socket.once("close", () => open.delete(socket));
    });
    const target = `127.0.0.1:${upstream.port}`;
    const proxy = await startProxy({ allowlist: [target], trustedUrls: [], limits: { maxConnections: 2 } });
    const client = await connected(proxy.socketPath);
    const request = (path: string) => `GET http://${target}${path} HTTP/1.1\r\nHost: ${target}\r\n\r\n`;
    client.write(request("/first") + request("/second"));
    await expect.poll(() => upstream.received.length, { timeout: 15_000 }).toBe(2);
    // A malformed third request: the proxy answers 400 and closes the connection while the
    // first answer is still pending, so the second one is never given the connection.
    client.on("end", () => client.destroy());
    client.write("\u0000\r\n\r\n");
    // On the old code the second upstream request stayed open until tunnelIdleMs.
    await expect.poll(() => open.size, { timeout: 15_000 }).toBe(0);
    answering = true;
    const after = await Promise.all([
      proxyRequest(proxy.socketPath, `http://${target}/a`),
      proxyRequest(proxy.socketPath, `http://${target}/b`),
    ]);
    expect(after.map((response) => response.status)).toEqual([200, 200]);
  });

  it("answers 431 to a request head larger than maxHeaderBytes", async () => {
    const proxy = await startProxy({
      allowlist: ["api.test"],
      trustedUrls: [],
      limits: { maxHeaderBytes: 1024 },
    });
    const result = await rawExchange(
      proxy.socketPath,
      `GET http://api.test/ HTTP/1.1\r\nHost: api.test\r\nX-Big: ${"a".repeat(4096)}\r\n\r\n`,
    );
    expect(result.response).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(result.response).toContain("X-Proxy-Error: request_header_too_large\r\n");
    const small = await rawExchange(
      proxy.socketPath,
      "GET http://other.test/ HTTP/1.1\r\nHost: other.test\r\n\r\n",
    );
    expect(small.response).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
  });

  it("answers 408 and closes a connection that trickles an incomplete request head", async () => {
    const proxy = await startProxy({
      allowlist: ["api.test"],
      trustedUrls: [],
      limits: { headersTimeoutMs: 200 },
    });
    const result = await rawExchange(proxy.socketPath, "GET http://api.test/ HTTP/1.1\r\nHost: api", {
      end: false,
      timeoutMs: 10_000,
    });
    expect(result.timedOut).toBe(false);
    expect(result.response).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(result.response).toContain("X-Proxy-Error: request_timeout\r\n");
    await expect.poll(() => proxy.stats().activeConnections === 0, { timeout: 15_000 }).toBe(true);
  });

  it("closes a plain-HTTP connection whose request body stalls longer than tunnelIdleMs", async () => {
    const upstream = await startHttpUpstream();
    const proxy = await startProxy({
      allowlist: [`127.0.0.1:${upstream.port}`],
      trustedUrls: [],
      limits: { tunnelIdleMs: 200 },
    });
    const result = await rawExchange(
      proxy.socketPath,
      `POST http://127.0.0.1:${upstream.port}/ HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly-part`,
      { end: false, timeoutMs: 10_000 },
    );
    expect(result.timedOut).toBe(false);
    expect(upstream.received).toHaveLength(0);
    await expect.poll(() => proxy.stats().activeConnections === 0, { timeout: 15_000 }).toBe(true);
  });

  it("closes the connection after denying a request whose body is still arriving", async () => {
    const proxy = await startProxy({ allowlist: ["api.test"], trustedUrls: [] });
    const result = await rawExchange(
      proxy.socketPath,
      "POST http://example.com/ HTTP/1.1\r\nHost: example.com\r\nContent-Length: 100\r\n\r\npart",
      { end: false, timeoutMs: 10_000 },
    );
    expect(result.timedOut).toBe(false);
    expect(result.response).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(result.response).toMatch(/\r\nConnection: close\r\n/i);
  });

  it("close() during a pending lookup never opens the upstream connection", async () => {
    const echo = await startEchoServer();
    let answer: (() => void) | undefined;
    const decisions: NetworkDecision[] = [];
    const proxy = await startProxy({
      allowlist: [],
      trustedUrls: [`http://control.test:${echo.port}`],
      resolver: () =>
        new Promise((resolve) => {
          answer = () => resolve([{ address: "127.0.0.1", family: 4 }]);
        }),
      onNetworkDecision: (d) => decisions.push(d),
    });
    const pending = rawExchange(proxy.socketPath, `CONNECT control.test:${echo.port} HTTP/1.1\r\n\r\n`, {
      end: false,
    });
    await expect.poll(() => answer !== undefined, { timeout: 15_000 }).toBe(true);
    await proxy.close();
    answer!();
    expect((await pending).timedOut).toBe(false);
    await expect.poll(() => decisions.length === 1, { timeout: 15_000 }).toBe(true);
    expect(decisions).toEqual([
      { decision: "deny", host: "control.test", port: echo.port, reason: "proxy_closed" },
    ]);
    expect(echo.accepted()).toBe(0);
  });

  it("close() ends open tunnels and keep-alive connections", async () => {
    const echo = await startEchoServer();
    const proxy = await startProxy({ allowlist: [`127.0.0.1:${echo.port}`], trustedUrls: [] });
    const tunnels = await Promise.all(
      [1, 2, 3].map(() => openTunnel(proxy.socketPath, `127.0.0.1:${echo.port}`)),
    );
    for (const { socket, rest } of tunnels) {
      socket.write("x");
      expect((await readBytes(socket, 1, rest)).toString()).toBe("x");
    }
    const idle = await connected(proxy.socketPath);
    const closed = [...tunnels.map(({ socket }) => socket), idle].map(
      (socket) => new Promise<void>((resolve) => socket.on("close", () => resolve())),
    );
    await expect
      .poll(() => echo.open() === 3 && proxy.stats().activeConnections === 4, { timeout: 15_000 })
      .toBe(true);
    await proxy.close();
    await Promise.all(closed);
    await expect.poll(() => echo.open() === 0, { timeout: 15_000 }).toBe(true);
    expect(proxy.stats().activeConnections).toBe(0);
  });
});
