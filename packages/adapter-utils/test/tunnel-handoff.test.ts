import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createServer as createNetServer } from "node:net";
import path from "node:path";
import { readProcTable } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { nativeBridgePath } from "../src/bridge/native-bridge-path.js";
import { BRIDGE_SOCKET_NAME, HANDOFF_SOCKET_NAME } from "../src/handoff/handoff-wire.js";
import { startTunnelCourier } from "../src/handoff/tunnel-courier.js";
import type { SandboxNetworkProxy, SandboxNetworkProxyLimits } from "../src/proxy/index.js";
import { closeAll, startEchoServer, startProxy, startSourceServer, tempSocketPath } from "./proxy-support.js";
import { cleanupAll, onCleanup } from "./sandbox-support.js";

afterEach(async () => {
  await cleanupAll();
  await closeAll();
});

const MIB = 1024 * 1024;

function bridgeBinary(): string {
  const binary = nativeBridgePath();
  if (!binary || !existsSync(binary)) throw new Error(`the native bridge is not built: ${binary}`);
  return binary;
}

/**
 * The in-sandbox client. argv: mode, target port, then the mode's arguments. It tunnels
 * with CONNECT through the bridge (or, `as-bridge-*`, straight to the proxy's socket for
 * the bridge's connections, reading its id first) and prints one JSON line.
 */
const CLIENT = `"use strict";
const net = require("node:net");
const fs = require("node:fs");
const crypto = require("node:crypto");
const [mode, port, arg] = process.argv.slice(1);
const report = (value) => { process.stdout.write(JSON.stringify(value) + "\\n"); };
function open(onTunnel, via) {
  const socket = via ? net.connect(via) : net.connect(31337, "127.0.0.1");
  socket.on("error", (error) => report({ error: error.code }));
  socket.once("connect", () => socket.write("CONNECT 127.0.0.1:" + port + " HTTP/1.1\\r\\n\\r\\n"));
  let head = Buffer.alloc(0);
  let idBytes = via ? 8 : 0;
  const onHead = (chunk) => {
    head = Buffer.concat([head, chunk]);
    if (head.length < idBytes) return;
    head = head.subarray(idBytes);
    idBytes = 0;
    const end = head.indexOf("\\r\\n\\r\\n");
    if (end === -1) return;
    socket.off("data", onHead);
    onTunnel(socket, head.subarray(0, 12).toString(), head.subarray(end + 4));
  };
  socket.on("data", onHead);
}
function upload(via) {
  open((socket, status) => {
    const payload = crypto.randomBytes(Number(arg));
    let reply = "";
    socket.on("data", (chunk) => { reply += chunk; });
    socket.on("close", () => report({ status, sent: crypto.createHash("sha256").update(payload).digest("hex"), reply }));
    socket.end(payload);
  }, via);
}
const modes = {
  download: () => open((socket, status, rest) => {
    const hash = crypto.createHash("sha256").update(rest);
    let bytes = rest.length;
    socket.on("data", (chunk) => { hash.update(chunk); bytes += chunk.length; });
    socket.on("close", () => report({ status, bytes, sha256: hash.digest("hex") }));
  }),
  upload: () => upload(),
  // Uploads and half-closes at once on the bridge's proxy socket: its end reaches the host while the offer is out.
  "as-bridge-upload": () => upload(process.env.RELAY_SOCKET),
  // Sends one byte, reads its echo, then waits for the far side to close the tunnel.
  "echo-then-wait": () => open((socket, status) => {
    socket.once("data", (echo) => {
      report({ status, echoed: echo.toString() });
      socket.on("close", () => report({ closed: true }));
    });
    socket.write("x");
  }),
  // Straight to the bridge's proxy socket: echoes two messages.
  "as-bridge-echo": () => open((socket, status) => {
    let seen = "";
    socket.on("data", (chunk) => {
      seen += chunk;
      if (seen === "ping") socket.write("pong");
      if (seen === "pingpong") { report({ status, seen }); socket.destroy(); }
    });
    socket.write("ping");
  }, process.env.RELAY_SOCKET),
  "as-bridge-status": () => open((socket, status) => { report({ status }); socket.destroy(); }, process.env.RELAY_SOCKET),
  // arg tunnels at once, each reading the whole download; every third drops its socket mid-way.
  swarm: () => {
    const results = [];
    const total = Number(arg);
    for (let i = 0; i < total; i += 1) {
      const abandon = i % 3 === 2;
      open((socket, status, rest) => {
        let bytes = rest.length;
        socket.on("data", (chunk) => {
          bytes += chunk.length;
          if (abandon && bytes > 1024 * 1024) socket.destroy();
        });
        socket.on("close", () => {
          results.push({ status, bytes, abandon });
          if (results.length === total) report(results);
        });
      });
    }
  },
  "connect-courier": () => {
    const socket = net.connect(arg);
    socket.on("connect", () => { report({ connected: true }); socket.destroy(); });
    socket.on("error", (error) => report({ error: error.code }));
  },
};
// With a go-file, the client starts only once the test created it.
const go = process.env.GO_FILE;
const start = () => (go && !fs.existsSync(go) ? setTimeout(start, 10) : modes[mode]());
start();
`;

interface SandboxRun {
  child: ChildProcess;
  /** Every line the client printed so far. */
  lines(): unknown[];
  /** Resolves once the client printed `count` lines. */
  linesAtLeast(count: number): Promise<unknown[]>;
  exited: Promise<number | null>;
}

/**
 * Runs the native bridge in a real bwrap sandbox of its own network namespace (so its
 * port 31337 is always free), with the client above as the program. The host's
 * filesystem is shared: the protocol, not the filesystem scope, is under test here.
 */
function runClientInSandbox(
  proxy: SandboxNetworkProxy,
  args: string[],
  env: Record<string, string> = {},
): SandboxRun {
  const child = spawn(
    "bwrap",
    [
      "--dev-bind",
      "/",
      "/",
      "--unshare-net",
      "--unshare-pid",
      "--proc",
      "/proc",
      "--die-with-parent",
      // As the package's own argv does, bwrap's options name the run's private directory
      // (the courier checks it walks up to that bwrap): bound onto itself here.
      "--ro-bind",
      path.dirname(proxy.socketPath),
      path.dirname(proxy.socketPath),
      "--",
      bridgeBinary(),
      "127.0.0.1:31337",
      proxy.socketPath,
      process.execPath,
      "-e",
      CLIENT,
      ...args,
    ],
    {
      env: {
        PATH: process.env.PATH ?? "",
        RELAY_SOCKET: path.join(path.dirname(proxy.socketPath), BRIDGE_SOCKET_NAME),
        // What the package's own argv sets with bwrap's --setenv when a courier serves the run.
        ...(proxy.handoff ? { PAPERCLIP_SANDBOX_COURIER: "1" } : {}),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  });
  let stdout = "";
  let stderr = "";
  const waiters: (() => void)[] = [];
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const lines = () =>
    stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown);
  const linesAtLeast = async (count: number) => {
    while (lines().length < count) {
      const more = new Promise<void>((resolve) => waiters.push(resolve));
      const ended = exited.then(() => {
        throw new Error(`the client ended after ${lines().length} of ${count} lines; stderr: ${stderr}`);
      });
      await Promise.race([more, ended]);
    }
    return lines();
  };
  return { child, lines, linesAtLeast, exited };
}

async function handoffProxy(
  allowedPort: number,
  limits: SandboxNetworkProxyLimits = {},
): Promise<SandboxNetworkProxy> {
  return startProxy({
    allowlist: [`127.0.0.1:${allowedPort}`],
    trustedUrls: [],
    handoffBridge: bridgeBinary(),
    limits,
  });
}

/**
 * Couriers of this test process that serve a proxy (a spare is named `courier-spare`
 * until a proxy takes it). The tests here run one proxy at a time.
 */
function couriersInUse(): number[] {
  return readProcTable()
    .filter(({ pid, ppid }) => ppid === process.pid && comm(pid) === "courier-serving\n")
    .map(({ pid }) => pid);
}

function comm(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8");
  } catch {
    return undefined;
  }
}

/** What the client reports for a download of `payload` that arrived whole and in order. */
function downloaded(payload: Buffer) {
  return {
    status: "HTTP/1.1 200",
    bytes: payload.length,
    sha256: createHash("sha256").update(payload).digest("hex"),
  };
}

/** A loopback sink: hashes what it receives until the client's FIN, answers the hash and ends. */
async function startHashingSink(): Promise<number> {
  const server = createNetServer({ allowHalfOpen: true }, (socket) => {
    socket.on("error", () => {});
    const hash = createHash("sha256");
    socket.on("data", (chunk) => hash.update(chunk));
    socket.on("end", () => socket.end(hash.digest("hex")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as { port: number }).port;
}

describe("tunnel handoff to the native bridge (real bwrap, own network namespace)", () => {
  it("hands a long download to the bridge after handoffAfterBytes: intact, and the rest never passes the host", async () => {
    const payload = randomBytes(8 * MIB);
    const source = await startSourceServer(payload);
    const proxy = await handoffProxy(source.port);
    const run = runClientInSandbox(proxy, ["download", String(source.port)]);
    expect(await run.exited).toBe(0);
    expect(run.lines()).toEqual([downloaded(payload)]);
    const stats = proxy.stats();
    expect(stats.handedOff).toBe(1);
    // The host relayed its first MiB (and at most one read more), then paused upstream for good.
    expect(stats.bytesOut).toBeGreaterThanOrEqual(MIB);
    expect(stats.bytesOut).toBeLessThan(2 * MIB);
  });

  it("hands a long upload over too: every byte arrives once and in order, and the client's FIN still ends it", async () => {
    const sink = await startHashingSink();
    const proxy = await handoffProxy(sink);
    const run = runClientInSandbox(proxy, ["upload", String(sink), String(24 * MIB)]);
    expect(await run.exited).toBe(0);
    const [result] = run.lines() as { status: string; sent: string; reply: string }[];
    expect(result?.status).toBe("HTTP/1.1 200");
    expect(result?.reply).toBe(result?.sent);
    expect(proxy.stats().handedOff).toBe(1);
  });

  it("leaves a short exchange with the host relay (no handoff below handoffAfterBytes)", async () => {
    const echo = await startEchoServer();
    const proxy = await handoffProxy(echo.port);
    const run = runClientInSandbox(proxy, ["echo-then-wait", String(echo.port)]);
    expect((await run.linesAtLeast(1))[0]).toEqual({ status: "HTTP/1.1 200", echoed: "x" });
    expect(proxy.stats().handedOff).toBe(0);
  });

  it("closing the proxy ends a handed-off tunnel, and its courier with it", async () => {
    const echo = await startEchoServer();
    const proxy = await handoffProxy(echo.port, { handoffAfterBytes: 1 });
    const run = runClientInSandbox(proxy, ["echo-then-wait", String(echo.port)]);
    expect((await run.linesAtLeast(1))[0]).toEqual({ status: "HTTP/1.1 200", echoed: "x" });
    await expect.poll(() => proxy.stats().handedOff === 1, { timeout: 15_000 }).toBe(true);
    expect(couriersInUse()).toHaveLength(1);
    await proxy.close();
    expect((await run.linesAtLeast(2))[1]).toEqual({ closed: true });
    expect(couriersInUse()).toEqual([]);
    expect(existsSync(path.join(path.dirname(proxy.socketPath), HANDOFF_SOCKET_NAME))).toBe(false);
  });

  it("keeps the idle limit after the handoff: the bridge closes a silent tunnel", async () => {
    const echo = await startEchoServer();
    const proxy = await handoffProxy(echo.port, { handoffAfterBytes: 1, tunnelIdleMs: 300 });
    const run = runClientInSandbox(proxy, ["echo-then-wait", String(echo.port)]);
    expect(await run.linesAtLeast(2)).toEqual([{ status: "HTTP/1.1 200", echoed: "x" }, { closed: true }]);
    expect(proxy.stats().handedOff).toBe(1);
    // The host saw the end through the courier: its lifeline is closed too.
    await expect.poll(() => proxy.stats().activeConnections === 0, { timeout: 15_000 }).toBe(true);
  });

  it("a program that uses the bridge's proxy socket itself gets the policy and the host relay, never a handoff", async () => {
    const echo = await startEchoServer();
    const denied = await startEchoServer();
    const proxy = await handoffProxy(echo.port, { handoffAfterBytes: 1 });
    const relayed = runClientInSandbox(proxy, ["as-bridge-echo", String(echo.port)]);
    expect(await relayed.exited).toBe(0);
    expect(relayed.lines()).toEqual([{ status: "HTTP/1.1 200", seen: "pingpong" }]);
    // A second sandbox on the same proxy (the package starts one per run): its courier already
    // serves the first, so this bridge is not told of one.
    const refused = runClientInSandbox(proxy, ["as-bridge-status", String(denied.port)], {
      PAPERCLIP_SANDBOX_COURIER: "",
    });
    expect(await refused.exited).toBe(0);
    expect(refused.lines()).toEqual([{ status: "HTTP/1.1 403" }]);
    expect(proxy.stats().handedOff).toBe(0);
  });

  it("an end that reaches the host while the offer is out, and a refusal, still get the host relay: no mark in the stream, the FIN passed on", async () => {
    const sink = await startHashingSink();
    const proxy = await handoffProxy(sink, { handoffAfterBytes: 1 });
    const run = runClientInSandbox(proxy, ["as-bridge-upload", String(sink), String(256 * 1024)]);
    expect(await run.exited).toBe(0);
    const [result] = run.lines() as { status: string; sent: string; reply: string }[];
    expect(result?.status).toBe("HTTP/1.1 200");
    expect(result?.reply).toBe(result?.sent);
    expect(proxy.stats().handedOff).toBe(0);
  });

  it("the courier takes the bridge's connection only: once the bridge is in, the program cannot reach it", async () => {
    const echo = await startEchoServer();
    const proxy = await handoffProxy(echo.port);
    const handoffSocket = path.join(path.dirname(proxy.socketPath), HANDOFF_SOCKET_NAME);
    const run = runClientInSandbox(proxy, ["connect-courier", String(echo.port), handoffSocket]);
    expect(await run.exited).toBe(0);
    expect(run.lines()).toEqual([{ error: "ENOENT" }]);
  });

  it("a bridge that cannot reach a courier that listens does not start the program (the courier's next connection could be the program's)", async () => {
    const dir = path.dirname(await tempSocketPath());
    const courier = createNetServer();
    const passSocket = path.join(dir, HANDOFF_SOCKET_NAME);
    await new Promise<void>((resolve) => courier.listen(passSocket, resolve));
    onCleanup(() => new Promise<void>((resolve) => courier.close(() => resolve())));
    // A sandbox without capabilities (as every sandbox runs) cannot connect to a socket it may not write.
    chmodSync(passSocket, 0o000);
    const marker = path.join(dir, "program-started");
    const run = spawn(
      "bwrap",
      [
        "--dev-bind",
        "/",
        "/",
        "--unshare-net",
        "--cap-drop",
        "ALL",
        "--die-with-parent",
        "--",
        bridgeBinary(),
        "127.0.0.1:31337",
        path.join(dir, "proxy.sock"),
        "/bin/sh",
        "-c",
        `touch ${marker}`,
      ],
      {
        stdio: ["ignore", "ignore", "pipe"],
        env: { ...process.env, PAPERCLIP_SANDBOX_COURIER: "run-token" },
      },
    );
    let stderr = "";
    run.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => run.once("exit", resolve));
    expect(code).toBe(125);
    expect(stderr).toContain(
      "paperclip-sandbox bridge: ERR_SANDBOX_COURIER_UNREACHABLE: run-token: cannot reach the tunnel courier beside",
    );
    expect(existsSync(marker)).toBe(false);
  });

  it("with its courier gone, the proxy relays every tunnel itself", async () => {
    const payload = randomBytes(4 * MIB);
    const source = await startSourceServer(payload);
    const proxy = await handoffProxy(source.port);
    const dir = path.dirname(proxy.socketPath);
    const goFile = path.join(dir, "go");
    const run = runClientInSandbox(proxy, ["download", String(source.port)], { GO_FILE: goFile });
    // The bridge connected (the courier removed its socket), then the courier dies.
    await expect.poll(() => !existsSync(path.join(dir, HANDOFF_SOCKET_NAME)), { timeout: 15_000 }).toBe(true);
    for (const pid of couriersInUse()) process.kill(pid, "SIGKILL");
    await expect.poll(() => couriersInUse().length === 0, { timeout: 15_000 }).toBe(true);
    await writeFile(goFile, "");
    expect(await run.exited).toBe(0);
    expect(run.lines()).toEqual([downloaded(payload)]);
    expect(proxy.stats()).toMatchObject({ handedOff: 0, bytesOut: expect.any(Number) });
    expect(proxy.stats().bytesOut).toBeGreaterThan(payload.length);
  });

  it("a courier that cannot start leaves the proxy relaying every tunnel, and nothing behind", async () => {
    const dir = path.dirname(await tempSocketPath());
    expect(await startTunnelCourier("/bin/false", path.join(dir, HANDOFF_SOCKET_NAME))).toBeNull();
    expect(readdirSync(dir)).toEqual([]);
    const payload = randomBytes(2 * MIB);
    const source = await startSourceServer(payload);
    const proxy = await startProxy({
      allowlist: [`127.0.0.1:${source.port}`],
      trustedUrls: [],
      handoffBridge: "/bin/false",
    });
    const run = runClientInSandbox(proxy, ["download", String(source.port)]);
    expect(await run.exited).toBe(0);
    expect(run.lines()).toEqual([downloaded(payload)]);
    expect(proxy.stats().handedOff).toBe(0);
  });

  it("many tunnels handed off at once, a third dropped mid-transfer, leave the host with nothing open", async () => {
    const payload = randomBytes(4 * MIB);
    const source = await startSourceServer(payload);
    // A proxy and its courier once, so the spare courier the next start leaves behind is in the baseline.
    const warmUp = await handoffProxy(source.port);
    await warmUp.close();
    const descriptors = () => readdirSync("/proc/self/fd").length;
    const baseline = descriptors();
    const proxy = await handoffProxy(source.port, { handoffAfterBytes: 64 * 1024 });
    const run = runClientInSandbox(proxy, ["swarm", String(source.port), "30"]);
    expect(await run.exited).toBe(0);
    const [results] = run.lines() as { status: string; bytes: number; abandon: boolean }[][];
    expect(results).toHaveLength(30);
    for (const result of results ?? []) {
      expect(result.status).toBe("HTTP/1.1 200");
      if (!result.abandon) expect(result.bytes).toBe(payload.length);
    }
    expect(proxy.stats().handedOff).toBeGreaterThan(0);
    await expect.poll(() => proxy.stats().activeConnections === 0, { timeout: 15_000 }).toBe(true);
    await proxy.close();
    await expect.poll(() => descriptors() === baseline, { timeout: 15_000 }).toBe(true);
  });

  it("a bridge killed mid-tunnel leaves no lifeline open in the host", async () => {
    const echo = await startEchoServer();
    const proxy = await handoffProxy(echo.port, { handoffAfterBytes: 1 });
    const run = runClientInSandbox(proxy, ["echo-then-wait", String(echo.port)]);
    await run.linesAtLeast(1);
    await expect.poll(() => proxy.stats().handedOff === 1, { timeout: 15_000 }).toBe(true);
    expect(proxy.stats().activeConnections).toBe(1);
    run.child.kill("SIGKILL");
    await run.exited;
    await expect.poll(() => proxy.stats().activeConnections === 0, { timeout: 15_000 }).toBe(true);
  });
});
