import type { Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closeAll, startEchoServer, startHttpUpstream } from "./proxy-support.js";
import { cleanupAll, runNodeInSandbox, SETTLE, scratchDir } from "./sandbox-support.js";

afterEach(async () => {
  await closeAll();
  await cleanupAll();
});

/**
 * What a run's proxy holds open on the host's side when the run ends: a CONNECT tunnel that a
 * daemon of the program keeps after the program exits 0, and the upstream connection the proxy
 * pools for plain HTTP (its agent keeps it alive for the next request, and the upstream here
 * would keep it ten minutes). Both are the host's sockets, to hosts of the program's choice
 * within the allowlist; neither may outlive the run.
 */
const PROGRAM = (echoPort: number, httpPort: number) => `
const net = require("node:net");
const { spawn } = require("node:child_process");
const viaBridge = () => net.connect(31337, "127.0.0.1");
const exchange = (socket, data, until) =>
  new Promise((resolve) => {
    let seen = "";
    const onData = (chunk) => {
      seen += chunk;
      if (!until.test(seen)) return;
      socket.off("data", onData);
      resolve(seen);
    };
    socket.on("data", onData);
    socket.write(data);
  });
(async () => {
  const plain = viaBridge();
  await exchange(plain, "GET http://127.0.0.1:${httpPort}/ HTTP/1.1\\r\\nConnection: keep-alive\\r\\n\\r\\n", /allowed-response/);
  plain.destroy();
  const tunnel = viaBridge();
  await exchange(tunnel, "CONNECT 127.0.0.1:${echoPort} HTTP/1.1\\r\\n\\r\\n", /\\r\\n\\r\\n/);
  await exchange(tunnel, "ping", /ping/);
  // The daemon shares the tunnel's descriptor and outlives this process.
  const daemon = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
    detached: true,
    stdio: ["ignore", "ignore", "ignore", tunnel],
  });
  daemon.unref();
  console.log("held");
  process.exit(0);
})().catch((error) => { console.error(error); process.exit(7); });`;

describe("the host's upstream connections when a run ends", () => {
  it("a tunnel a daemon keeps and a pooled keep-alive connection are both closed", async () => {
    const echo = await startEchoServer();
    const upstream = await startHttpUpstream();
    upstream.server.keepAliveTimeout = 10 * 60_000;
    const open = new Set<Socket>();
    upstream.server.on("connection", (socket: Socket) => {
      open.add(socket);
      socket.on("close", () => open.delete(socket));
    });
    const result = await runNodeInSandbox(PROGRAM(echo.port, upstream.port), {
      workspaceDir: await scratchDir(),
      networkScope: "allowlist",
      networkAllowlist: [`127.0.0.1:${echo.port}`, `127.0.0.1:${upstream.port}`],
    });
    expect({ exitCode: result.exitCode, stdout: result.stdout.trim() }).toEqual({
      exitCode: 0,
      stdout: "held",
    });
    expect(echo.accepted()).toBe(1);
    expect(upstream.received).toHaveLength(1);
    await vi.waitFor(
      () => expect({ tunnels: echo.open(), pooled: open.size }).toEqual({ tunnels: 0, pooled: 0 }),
      SETTLE,
    );
  });
});
