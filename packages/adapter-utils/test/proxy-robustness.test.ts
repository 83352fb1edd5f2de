import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import path from "node:path";
import { tempDirForFile } from "@paperclipai/test-support";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxNetworkProxy } from "../src/proxy/index.js";
import {
  closeAll,
  openTunnel,
  proxyRequest,
  rawExchange,
  readBytes,
  seededBytes,
  startEchoServer,
  startHttpUpstream,
  startProxy,
} from "./proxy-support.js";

/**
 * Thousands of hostile inputs against one live proxy in this process. Every input
 * must get a 4xx answer or a close, never a tunnel or a forwarded request; the
 * process must stay up, allowed traffic must keep flowing, and no socket may leak.
 */

const BATCH = 50;
// Short, under /tmp, and before `afterAll(closeAll)`: removed after the proxy closed (hooks run in reverse).
const socketDir = tempDirForFile("pc-proxy-test-", { base: "/tmp" });
const SEED = 20_261_201;

let proxy: SandboxNetworkProxy;
let echo: Awaited<ReturnType<typeof startEchoServer>>;
let upstream: Awaited<ReturnType<typeof startHttpUpstream>>;
const processFaults: unknown[] = [];
const onFault = (error: unknown) => processFaults.push(error);

beforeAll(async () => {
  process.on("uncaughtException", onFault);
  process.on("unhandledRejection", onFault);
  echo = await startEchoServer();
  upstream = await startHttpUpstream();
  proxy = await startProxy({
    socketPath: path.join(socketDir, "proxy.sock"),
    allowlist: [`127.0.0.1:${echo.port}`, `127.0.0.1:${upstream.port}`, "api.test"],
    trustedUrls: [],
    // Hostile inputs must never reach real DNS.
    resolver: async () => [{ address: "127.0.0.1", family: 4 }],
    limits: { headersTimeoutMs: 1_000, maxConnections: 512 },
  });
});

afterAll(async () => {
  await closeAll();
  process.off("uncaughtException", onFault);
  process.off("unhandledRejection", onFault);
});

async function inBatches<T>(items: readonly T[], run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH) await Promise.all(items.slice(i, i + BATCH).map(run));
}

/** What a hostile exchange may legitimately produce: nothing, or a proxy 4xx. Never 2xx/3xx/5xx. */
function expectRefusedOrSilent(response: string): void {
  if (response.length === 0) return;
  expect(response).toMatch(/^HTTP\/1\.1 4\d\d /);
}

/** Sends bytes and then either half-closes, resets, or simply walks away after a moment. */
function hostileWrite(payload: Buffer, mode: "end" | "destroy" | "linger"): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(proxy.socketPath);
    socket.on("error", () => {});
    socket.on("close", () => resolve());
    socket.on("data", () => {});
    socket.on("connect", () => {
      if (mode === "end") socket.end(payload);
      else if (mode === "destroy") socket.write(payload, () => socket.destroy());
      else {
        socket.write(payload);
        setTimeout(() => socket.destroy(), 20);
      }
    });
  });
}

const upstreamBaseline = () => upstream.received.length;

describe("proxy robustness against hostile sandbox input", () => {
  it("survives 1200 connections of random bytes, half-closed, reset or abandoned", async () => {
    const before = upstreamBaseline();
    const modes = ["end", "destroy", "linger"] as const;
    const inputs = Array.from({ length: 1_200 }, (_, i) => ({
      payload: seededBytes(1 + ((i * 7919) % 4096), i),
      mode: modes[i % 3]!,
    }));
    await inBatches(inputs, ({ payload, mode }) => hostileWrite(payload, mode));
    expect(upstream.received.length).toBe(before);
    expect(echo.accepted()).toBe(0);
  });

  it("refuses 600 generated CONNECT targets and request lines", async () => {
    const target = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.string({ unit: "binary", maxLength: 80 }),
      fc
        .tuple(
          fc.domain(),
          fc.oneof(fc.integer({ min: -70_000, max: 0 }), fc.integer({ min: 65_536, max: 10 ** 9 })),
        )
        .map(([host, port]) => `${host}:${port}`),
      fc.tuple(fc.domain(), fc.string({ maxLength: 8 })).map(([host, port]) => `${host}:${port}`),
      fc.ipV6().map((address) => `${address}:443`),
      fc.constantFrom("127.0.0.1:22", "[::1]:22", "169.254.169.254:80", "localhost:443", "0:443", "127.1:1"),
    );
    const method = fc.constantFrom("CONNECT", "GET", "POST", "connect", "CONNECT\t", "PRI", "M-SEARCH", "");
    const lines = fc.sample(fc.tuple(method, target), { numRuns: 600, seed: SEED });
    const before = upstreamBaseline();
    await inBatches(lines, async ([verb, host]) => {
      const { response } = await rawExchange(
        proxy.socketPath,
        `${verb} ${host} HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
      );
      expectRefusedOrSilent(response);
    });
    expect(upstream.received.length).toBe(before);
    expect(echo.accepted()).toBe(0);
  });

  it("answers 431 to 150 oversized heads and 400 to 200 heads cut off by a half-close", async () => {
    const sizes = Array.from({ length: 150 }, (_, i) => 17_000 + i * 997);
    await inBatches(sizes, async (size) => {
      const { response } = await rawExchange(
        proxy.socketPath,
        `GET http://api.test/ HTTP/1.1\r\nHost: api.test\r\nX-Pad: ${"p".repeat(size)}\r\n\r\n`,
      );
      if (response.length > 0) expect(response).toMatch(/^HTTP\/1\.1 431 /);
    });
    const cuts = Array.from({ length: 200 }, (_, i) => i);
    const request = `GET http://127.0.0.1:${upstream.port}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: b\r\n\r\n`;
    await inBatches(cuts, async (i) => {
      const cut = 1 + (i % (request.length - 3));
      const { response } = await rawExchange(proxy.socketPath, request.slice(0, cut));
      expect(response).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    });
  });

  it("closes 60 slowloris connections that trickle their heads, within the head timeout", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, () => {
        return new Promise<{ response: string; closedByProxy: boolean }>((resolve) => {
          const socket = connect(proxy.socketPath);
          const chunks: Buffer[] = [];
          const head = "GET http://api.test/ HTTP/1.1\r\nHost: api.test\r\nX-Slow: ";
          let sent = 0;
          let closedByProxy = true;
          const drip = setInterval(() => {
            if (socket.writable) socket.write(head[sent % head.length]!);
            sent += 1;
          }, 50);
          // A bound for a broken build: far beyond the proxy's 1 s head timeout.
          const bound = setTimeout(() => {
            closedByProxy = false;
            socket.destroy();
          }, 15_000);
          socket.on("data", (chunk: Buffer) => chunks.push(chunk));
          socket.on("error", () => {});
          socket.on("close", () => {
            clearInterval(drip);
            clearTimeout(bound);
            resolve({ response: Buffer.concat(chunks).toString("latin1"), closedByProxy });
          });
        });
      }),
    );
    for (const { response, closedByProxy } of outcomes) {
      expect(closedByProxy).toBe(true);
      expect(response).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    }
  });

  it("handles 300 adversarial HTTP messages: smuggling, pipelining, foreign protocols", async () => {
    const allowedUrl = `http://127.0.0.1:${upstream.port}/`;
    const messages = [
      `POST ${allowedUrl} HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET http://example.com/ HTTP/1.1\r\n\r\n`,
      `POST ${allowedUrl} HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!`,
      `POST ${allowedUrl} HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nbad\r\n`,
      `GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\nCONNECT 169.254.169.254:80 HTTP/1.1\r\n\r\n`,
      `GET http://user:pass@example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n`,
      `GET http://[::1/ HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET http://%31%32%37.0.0.1:${upstream.port}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET http://0x7f.1:${upstream.port + 1}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET ${allowedUrl} HTTP/1.1\r\nHost: a\r\nX-Bad\u0000Header: 1\r\n\r\n`,
      `GET ${allowedUrl} HTTP/9.9\r\nHost: a\r\n\r\n`,
      "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
      "\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003",
      `GET file:///etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET http://api.test:0/ HTTP/1.1\r\nHost: api.test\r\n\r\n`,
      `GET http://api.test/ HTTP/1.1\r\nHost: api.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
      `CONNECT api.test:443 HTTP/1.1\r\nHost: api.test:443\r\nContent-Length: 10\r\n\r\n`,
      `GET ${"http://api.test/".padEnd(20_000, "a")} HTTP/1.1\r\nHost: api.test\r\n\r\n`,
      `GET http://example.com/ HTTP/1.0\r\n\r\n`,
    ];
    const forwarded = upstreamBaseline();
    const inputs = Array.from({ length: 300 }, (_, i) => messages[i % messages.length]!);
    await inBatches(inputs, async (message) => {
      const { response } = await rawExchange(proxy.socketPath, Buffer.from(message, "latin1"));
      for (const status of response.match(/^HTTP\/1\.1 \d{3}/gm) ?? []) {
        // Only the deliberately allowed plain-HTTP target may answer 200; every proxy refusal is 4xx.
        expect(status).toMatch(/^HTTP\/1\.1 (200|4\d\d)$/);
      }
    });
    // The smuggled `GET http://example.com/` must never become a forwarded request.
    expect(upstream.received.slice(forwarded).every((r) => r.url === "/")).toBe(true);
  });

  it("tears down both legs of 400 allowed tunnels abandoned at every stage", async () => {
    const stages = ["before-200", "after-200", "mid-transfer", "half-close", "destroy-after-echo"] as const;
    const runs = Array.from({ length: 400 }, (_, i) => stages[i % stages.length]!);
    await inBatches(runs, (stage) => {
      return new Promise<void>((resolve) => {
        const socket = connect(proxy.socketPath);
        socket.on("error", () => {});
        socket.on("close", () => resolve());
        let seen = Buffer.alloc(0);
        socket.on("connect", () => {
          socket.write(`CONNECT 127.0.0.1:${echo.port} HTTP/1.1\r\n\r\n`);
          if (stage === "before-200") socket.destroy();
        });
        socket.on("data", (chunk: Buffer) => {
          seen = Buffer.concat([seen, chunk]);
          const established = seen.indexOf("\r\n\r\n") !== -1;
          if (!established) return;
          if (stage === "after-200") socket.destroy();
          else if (stage === "mid-transfer") socket.write(randomBytes(256 * 1024), () => socket.destroy());
          else if (stage === "half-close" && seen.length === 39) socket.end("bye");
          else if (stage === "destroy-after-echo" && seen.length === 39) socket.write("ping");
          else if (stage === "destroy-after-echo" && seen.includes("ping")) socket.destroy();
        });
      });
    });
    await expect.poll(() => echo.open() === 0, { timeout: 10_000 }).toBe(true);
  });

  it("refuses the connections beyond maxConnections under a flood of 600 and recovers", async () => {
    const open = (): Promise<{ socket: ReturnType<typeof connect>; refused: Promise<boolean> }> =>
      new Promise((resolve) => {
        const socket = connect(proxy.socketPath);
        socket.on("error", () => {});
        const refused = new Promise<boolean>((settle) => {
          socket.once("data", (chunk: Buffer) =>
            settle(chunk.toString("latin1").startsWith("HTTP/1.1 503 ")),
          );
          socket.once("close", () => settle(false));
        });
        socket.on("connect", () => resolve({ socket, refused }));
      });
    const held: Awaited<ReturnType<typeof open>>[] = [];
    const before = proxy.stats().connections;
    // A Unix connect completes once queued; waiting for the proxy to accept each wave of 100
    // keeps the flood inside the kernel's listen backlog (511), so every connect reaches the proxy.
    for (let wave = 1; wave <= 6; wave += 1) {
      held.push(...(await Promise.all(Array.from({ length: 100 }, open))));
      await expect
        .poll(() => proxy.stats().connections - before === wave * 100, { timeout: 15_000 })
        .toBe(true);
    }
    await expect.poll(() => proxy.stats().activeConnections === 512, { timeout: 15_000 }).toBe(true);
    for (const { socket } of held) socket.destroy();
    const refusals = (await Promise.all(held.map(({ refused }) => refused))).filter(Boolean).length;
    expect(refusals).toBe(88);
  });

  it("after a hostile barrage of its own, the process is up, allowed traffic flows and no socket is left open", async () => {
    // Stands alone: it produces the hostile traffic it checks the aftermath of.
    const before = proxy.stats();
    const modes = ["end", "destroy", "linger"] as const;
    await inBatches(
      Array.from({ length: 150 }, (_, i) => i),
      (i) => hostileWrite(seededBytes(1 + ((i * 131) % 2048), 10_000 + i), modes[i % 3]!),
    );
    await inBatches(
      Array.from({ length: 100 }, (_, i) => i),
      async (i) => {
        const { response } = await rawExchange(
          proxy.socketPath,
          `CONNECT denied-${i}.test:443 HTTP/1.1\r\n\r\n`,
        );
        expect(response).toMatch(/^HTTP\/1\.1 403 /);
      },
    );
    const response = await proxyRequest(proxy.socketPath, `http://127.0.0.1:${upstream.port}/after`);
    expect(response).toMatchObject({ status: 200, body: "allowed-response" });
    const { socket, statusLine, rest } = await openTunnel(proxy.socketPath, `127.0.0.1:${echo.port}`);
    expect(statusLine).toBe("HTTP/1.1 200 Connection Established");
    const payload = randomBytes(64 * 1024);
    socket.write(payload);
    expect((await readBytes(socket, payload.length, rest)).equals(payload)).toBe(true);
    socket.destroy();
    await expect
      .poll(() => proxy.stats().activeConnections === 0 && echo.open() === 0, { timeout: 10_000 })
      .toBe(true);
    const stats = proxy.stats();
    expect(stats.connections - before.connections).toBeGreaterThanOrEqual(252);
    expect(stats.denied - before.denied).toBeGreaterThanOrEqual(100);
    expect(processFaults).toEqual([]);
  });
});
