import { existsSync } from "node:fs";
import { connect, type Socket } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { nativeBridgePath } from "../src/bridge/native-bridge-path.js";
import { BRIDGE_SOCKET_NAME } from "../src/handoff/handoff-wire.js";
import type { SandboxNetworkProxy, SandboxNetworkProxyLimits } from "../src/proxy/index.js";
import { closeAll, rawExchange, startEchoServer, startHttpUpstream, startProxy } from "./proxy-support.js";

afterEach(closeAll);

/** The id the proxy gives its `n`th connection on relay.sock: 8 bytes, big-endian. */
function idBytes(n: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(n));
  return bytes;
}

async function proxyWithCourier(allowedPort: number, limits: SandboxNetworkProxyLimits = {}) {
  const binary = nativeBridgePath();
  if (!binary || !existsSync(binary)) throw new Error(`the native bridge is not built: ${binary}`);
  const proxy = await startProxy({ allowlist: [`127.0.0.1:${allowedPort}`], handoffBridge: binary, limits });
  expect(proxy.handoff).toBe(true);
  return proxy;
}

const relaySocket = (proxy: SandboxNetworkProxy) =>
  path.join(path.dirname(proxy.socketPath), BRIDGE_SOCKET_NAME);

/** Connects to relay.sock as the bridge does, sends `request`, resolves with the first chunk read. */
function firstRead(proxy: SandboxNetworkProxy, request: string): Promise<{ socket: Socket; chunk: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect(relaySocket(proxy), () => socket.write(request));
    socket.once("data", (chunk: Buffer) => {
      socket.pause();
      resolve({ socket, chunk });
    });
    socket.once("error", reject);
  });
}

/** Reads from `socket` until `text` has arrived; resolves with everything read. */
function readUntil(socket: Socket, already: Buffer, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = already.toString("latin1");
    if (seen.includes(text)) return resolve(seen);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString("latin1");
      if (!seen.includes(text)) return;
      socket.off("data", onData);
      resolve(seen);
    };
    socket.on("data", onData);
    socket.once("error", reject);
    socket.once("end", () => reject(new Error(`ended before ${JSON.stringify(text)}: ${seen}`)));
    socket.resume();
  });
}

describe("a bridge connection's id (relay.sock) leaves with the proxy's first answer", () => {
  it("a CONNECT tunnel's first read holds the id and the 200 together, and the tunnel relays", async () => {
    const echo = await startEchoServer();
    const proxy = await proxyWithCourier(echo.port);
    const target = `127.0.0.1:${echo.port}`;
    const { socket, chunk } = await firstRead(proxy, `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
    expect(chunk.subarray(0, 8)).toEqual(idBytes(1));
    expect(chunk.subarray(8).toString("latin1")).toBe("HTTP/1.1 200 Connection Established\r\n\r\n");
    socket.write("ping");
    expect(await readUntil(socket, Buffer.alloc(0), "ping")).toBe("ping");
    socket.destroy();
  });

  it("a refused CONNECT, a plain request, an unparsable head and an upgrade each get the id first, then their answer", async () => {
    const upstream = await startHttpUpstream();
    const proxy = await proxyWithCourier(upstream.port);
    const relay = relaySocket(proxy);
    const answers = [
      await rawExchange(relay, "CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n"),
      await rawExchange(
        relay,
        `GET http://127.0.0.1:${upstream.port}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      ),
      await rawExchange(relay, "NOT HTTP AT ALL\r\n\r\n"),
      await rawExchange(
        relay,
        "GET http://127.0.0.1:1/ HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: ws\r\n\r\n",
      ),
    ];
    const statuses = answers.map(({ response }, index) => {
      expect(Buffer.from(response, "latin1").subarray(0, 8)).toEqual(idBytes(index + 1));
      return response.slice(8, 8 + 12);
    });
    expect(statuses).toEqual(["HTTP/1.1 403", "HTTP/1.1 200", "HTTP/1.1 400", "HTTP/1.1 400"]);
    expect(answers[1]!.response).toContain("allowed-response");
  });

  it("a streamed plain response is not held back by the id: its first piece arrives before the upstream ends", async () => {
    let finish = () => {};
    const upstream = await startHttpUpstream((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/plain" });
      response.write("first-piece");
      finish = () => response.end("last-piece");
    });
    const proxy = await proxyWithCourier(upstream.port);
    const { socket, chunk } = await firstRead(
      proxy,
      `GET http://127.0.0.1:${upstream.port}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(chunk.subarray(0, 8)).toEqual(idBytes(1));
    expect(await readUntil(socket, chunk.subarray(8), "first-piece")).toMatch(/^HTTP\/1\.1 200/);
    finish();
    expect(await readUntil(socket, Buffer.alloc(0), "last-piece")).toContain("last-piece");
    socket.destroy();
  });

  it("a connection past the limit gets its id before the 503", async () => {
    const echo = await startEchoServer();
    const proxy = await proxyWithCourier(echo.port, { maxConnections: 1 });
    const target = `127.0.0.1:${echo.port}`;
    const held = await firstRead(proxy, `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
    expect(held.chunk.subarray(0, 8)).toEqual(idBytes(1));
    const refused = await rawExchange(relaySocket(proxy), "");
    expect(Buffer.from(refused.response, "latin1").subarray(0, 8)).toEqual(idBytes(2));
    expect(refused.response.slice(8)).toMatch(/^HTTP\/1\.1 503/);
    held.socket.destroy();
  });
});
