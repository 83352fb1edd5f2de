import { randomBytes } from "node:crypto";
import { refusedPortForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import type { NetworkDecision, NetworkResolver } from "../src/proxy/index.js";
import {
  closeAll,
  openTunnel,
  rawExchange,
  readBytes,
  startEchoServer,
  startProxy,
  startSourceServer,
} from "./proxy-support.js";

afterEach(closeAll);

const DENIED_BODY =
  '{"error":{"code":"network_target_denied","message":"Network target denied by Paperclip sandbox policy."}}\n';

function deniedResponse(reason: string): string {
  return [
    "HTTP/1.1 403 Forbidden",
    "Connection: close",
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(DENIED_BODY)}`,
    `X-Proxy-Error: ${reason}`,
    "",
    DENIED_BODY,
  ].join("\r\n");
}

const loopbackResolver: NetworkResolver = async () => [{ address: "127.0.0.1", family: 4 }];

describe("CONNECT through the sandbox proxy", () => {
  it("tunnels byte for byte to an allowed target, including bytes sent with the CONNECT head", async () => {
    const echo = await startEchoServer();
    const proxy = await startProxy({ allowlist: [`127.0.0.1:${echo.port}`], trustedUrls: [] });
    const head = Buffer.from("early-bytes:");
    const { socket, statusLine, rest } = await openTunnel(proxy.socketPath, `127.0.0.1:${echo.port}`, head);
    expect(statusLine).toBe("HTTP/1.1 200 Connection Established");
    const payload = randomBytes(1024 * 1024);
    socket.write(payload);
    const echoed = await readBytes(socket, head.length + payload.length, rest);
    expect(echoed.equals(Buffer.concat([head, payload]))).toBe(true);
    socket.destroy();
    await expect
      .poll(() => echo.open() === 0 && proxy.stats().activeConnections === 0, { timeout: 15_000 })
      .toBe(true);
    const stats = proxy.stats();
    expect(stats.bytesIn).toBeGreaterThanOrEqual(head.length + payload.length);
    expect(stats.bytesOut).toBeGreaterThanOrEqual(head.length + payload.length);
  });

  it("tunnels to bracketed IPv6 loopback matched against a non-canonical rule", async () => {
    const echo = await startEchoServer("::1");
    const proxy = await startProxy({ allowlist: [`[0:0:0:0:0:0:0:1]:${echo.port}`], trustedUrls: [] });
    const { socket, statusLine, rest } = await openTunnel(proxy.socketPath, `[::1]:${echo.port}`);
    expect(statusLine).toBe("HTTP/1.1 200 Connection Established");
    socket.write("v6");
    expect((await readBytes(socket, 2, rest)).toString()).toBe("v6");
    socket.destroy();
  });

  it("denies a target outside the allowlist with upstream's 403 and closes", async () => {
    const proxy = await startProxy({ allowlist: ["api.openai.com"], trustedUrls: [] });
    const result = await rawExchange(
      proxy.socketPath,
      "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
    );
    expect(result).toEqual({ response: deniedResponse("not_allowlisted"), timedOut: false });
  });

  it("denies the port a hostname-only rule does not open", async () => {
    const proxy = await startProxy({ allowlist: ["api.openai.com"], trustedUrls: [] });
    const result = await rawExchange(proxy.socketPath, "CONNECT api.openai.com:22 HTTP/1.1\r\n\r\n");
    expect(result.response).toBe(deniedResponse("port_not_allowed"));
  });

  it.each([
    ["example.com", "invalid_target"],
    [":443", "invalid_target"],
    ["[::1:443", "invalid_target"],
    ["::1:443", "invalid_target"],
    ["*.example.com:443", "invalid_target"],
    ["exa%6dple.com:443", "invalid_target"],
    ["api.test:0", "invalid_port"],
    ["api.test:65536", "invalid_port"],
    ["api.test:99999999999999999999", "invalid_port"],
    ["api.test:0x1bb", "invalid_port"],
    ["api.test:443abc", "invalid_port"],
    ["api.test:-443", "invalid_port"],
  ])("denies the unparseable target %j (%s) without throwing", async (target, reason) => {
    const decisions: NetworkDecision[] = [];
    const proxy = await startProxy({
      allowlist: ["api.test:*"],
      trustedUrls: [],
      onNetworkDecision: (d) => decisions.push(d),
    });
    const result = await rawExchange(proxy.socketPath, `CONNECT ${target} HTTP/1.1\r\n\r\n`);
    expect(result.response).toBe(deniedResponse(reason));
    expect(decisions).toEqual([{ decision: "deny", host: target, port: 0, reason }]);
  });

  it("refuses an allowlisted hostname that resolves to loopback and never connects", async () => {
    const echo = await startEchoServer();
    const decisions: NetworkDecision[] = [];
    const proxy = await startProxy({
      allowlist: [`sneaky.test:${echo.port}`],
      trustedUrls: [],
      resolver: loopbackResolver,
      onNetworkDecision: (d) => decisions.push(d),
    });
    const result = await rawExchange(proxy.socketPath, `CONNECT sneaky.test:${echo.port} HTTP/1.1\r\n\r\n`);
    expect(result.response).toBe(deniedResponse("blocked_address_loopback"));
    expect(echo.accepted()).toBe(0);
    expect(decisions).toEqual([
      { decision: "deny", host: "sneaky.test", port: echo.port, reason: "blocked_address_loopback" },
    ]);
  });

  it("refuses an allowlisted hostname that resolves into the local-use NAT64 prefix, whatever it embeds", async () => {
    const decisions: NetworkDecision[] = [];
    const proxy = await startProxy({
      allowlist: ["nat64.test:443"],
      trustedUrls: [],
      // 127.0.0.1 to a 64:ff9b:1::/48 translator; 8.8.8.8 when read as a /96 prefix.
      resolver: async () => [{ address: "64:ff9b:1:7f00:0:100:808:808", family: 6 }],
      onNetworkDecision: (d) => decisions.push(d),
    });
    const result = await rawExchange(proxy.socketPath, "CONNECT nat64.test:443 HTTP/1.1\r\n\r\n");
    expect(result.response).toBe(deniedResponse("blocked_address_reserved"));
    expect(decisions).toEqual([
      { decision: "deny", host: "nat64.test", port: 443, reason: "blocked_address_reserved" },
    ]);
  });

  it("lets a trusted URL's hostname tunnel to loopback", async () => {
    const echo = await startEchoServer();
    const proxy = await startProxy({
      allowlist: [],
      trustedUrls: [`https://control.test:${echo.port}/api`],
      resolver: loopbackResolver,
    });
    const { socket, statusLine, rest } = await openTunnel(proxy.socketPath, `CONTROL.test.:${echo.port}`);
    expect(statusLine).toBe("HTTP/1.1 200 Connection Established");
    socket.write("trusted");
    expect((await readBytes(socket, 7, rest)).toString()).toBe("trusted");
    socket.destroy();
  });

  it("keeps half-closed tunnels working: the client's FIN reaches the target, the reply still comes back", async () => {
    const echo = await startEchoServer();
    const proxy = await startProxy({ allowlist: [`127.0.0.1:${echo.port}`], trustedUrls: [] });
    const { socket, rest } = await openTunnel(proxy.socketPath, `127.0.0.1:${echo.port}`);
    const payload = randomBytes(300_000);
    socket.end(payload);
    const echoed = await readBytes(socket, Number.MAX_SAFE_INTEGER, rest);
    expect(echoed.equals(payload)).toBe(true);
    await expect
      .poll(() => echo.open() === 0 && proxy.stats().activeConnections === 0, { timeout: 15_000 })
      .toBe(true);
  });

  for (const [label, size, pieceBytes] of [
    ["in large chunks", 12 * 1024 * 1024, undefined],
    ["in small chunks", 3 * 1024 * 1024, 1000],
  ] as const) {
    it(`delivers a download sent ${label} intact to a reader that stalls, then the target's FIN`, async () => {
      // The client reads nothing for a while, so the proxy's writes to it back up: a read
      // buffer that a pending write still holds must not be filled again.
      const payload = randomBytes(size);
      const target = await startSourceServer(payload, { pieceBytes });
      const proxy = await startProxy({ allowlist: [`127.0.0.1:${target.port}`], trustedUrls: [] });
      const { socket, statusLine, rest } = await openTunnel(proxy.socketPath, `127.0.0.1:${target.port}`);
      expect(statusLine).toBe("HTTP/1.1 200 Connection Established");
      await new Promise((resolve) => setTimeout(resolve, 300));
      const received = await readBytes(socket, Number.MAX_SAFE_INTEGER, rest);
      expect(received.length).toBe(payload.length);
      expect(received.equals(payload)).toBe(true);
      socket.end();
      await expect.poll(() => proxy.stats().activeConnections === 0, { timeout: 15_000 }).toBe(true);
      expect(proxy.stats().bytesOut).toBeGreaterThanOrEqual(payload.length);
    });
  }

  it("tears down the target leg when the client vanishes, and the client leg when the target does", async () => {
    const echo = await startEchoServer();
    const proxy = await startProxy({ allowlist: [`127.0.0.1:${echo.port}`], trustedUrls: [] });
    const first = await openTunnel(proxy.socketPath, `127.0.0.1:${echo.port}`);
    await expect.poll(() => echo.open() === 1, { timeout: 15_000 }).toBe(true);
    first.socket.destroy();
    await expect
      .poll(() => echo.open() === 0 && proxy.stats().activeConnections === 0, { timeout: 15_000 })
      .toBe(true);

    const second = await openTunnel(proxy.socketPath, `127.0.0.1:${echo.port}`);
    const closed = new Promise<void>((resolve) => second.socket.on("close", () => resolve()));
    second.socket.resume();
    await expect.poll(() => echo.open() === 1, { timeout: 15_000 }).toBe(true);
    echo.destroyAll();
    await closed;
    await expect.poll(() => proxy.stats().activeConnections === 0, { timeout: 15_000 }).toBe(true);
  });

  it("answers 502 when the allowed target refuses the connection", async () => {
    const port = await refusedPortForTest();
    const proxy = await startProxy({ allowlist: [`127.0.0.1:${port}`], trustedUrls: [] });
    const result = await rawExchange(proxy.socketPath, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`);
    expect(result.response).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
    expect(result.response).toContain("X-Proxy-Error: upstream_error\r\n");
    expect(result.response).toContain('{"error":{"code":"upstream_error"');
  });

  it("answers 502 with dns_lookup_failed when an allowed hostname does not resolve", async () => {
    const proxy = await startProxy({
      allowlist: ["gone.test"],
      trustedUrls: [],
      resolver: async () => {
        throw new Error("ENOTFOUND");
      },
    });
    const result = await rawExchange(proxy.socketPath, "CONNECT gone.test:443 HTTP/1.1\r\n\r\n");
    expect(result.response).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
    expect(result.response).toContain("X-Proxy-Error: dns_lookup_failed\r\n");
  });

  it("closes a tunnel that stays idle longer than tunnelIdleMs", async () => {
    const echo = await startEchoServer();
    const proxy = await startProxy({
      allowlist: [`127.0.0.1:${echo.port}`],
      trustedUrls: [],
      limits: { tunnelIdleMs: 150 },
    });
    const { socket } = await openTunnel(proxy.socketPath, `127.0.0.1:${echo.port}`);
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.resume();
    await closed;
    await expect
      .poll(() => echo.open() === 0 && proxy.stats().activeConnections === 0, { timeout: 15_000 })
      .toBe(true);
  });

  it("outlives the request-head timeout once established", async () => {
    const echo = await startEchoServer();
    const proxy = await startProxy({
      allowlist: [`127.0.0.1:${echo.port}`],
      trustedUrls: [],
      limits: { headersTimeoutMs: 100 },
    });
    const { socket, rest } = await openTunnel(proxy.socketPath, `127.0.0.1:${echo.port}`);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    socket.write("still-here");
    expect((await readBytes(socket, 10, rest)).toString()).toBe("still-here");
    socket.destroy();
  });
});
