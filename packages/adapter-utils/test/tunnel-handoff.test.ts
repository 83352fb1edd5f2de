import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createServer as createNetServer } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HANDOFF_SOCKET_NAME } from "../src/handoff/handoff-wire.js";
import { startTunnelCourier } from "../src/handoff/tunnel-courier.js";
import { closeAll, startEchoServer, startProxy, startSourceServer, tempSocketPath } from "./proxy-support.js";
import { cleanupAll, onCleanup } from "./sandbox-support.js";
import {
  bridgeBinary,
  couriersInUse,
  downloaded,
  handoffProxy,
  runClientInSandbox,
  startHashingSink,
} from "./tunnel-handoff-support.js";

afterEach(async () => {
  await cleanupAll();
  await closeAll();
});

const MIB = 1024 * 1024;

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
