import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import WebSocket from "ws";
import { listeningRunner, peerOn, servedAgain, LISTEN_TICKET as TICKET } from "./helpers/listening-runner.js";

// In listen mode anyone who reaches the port opens TCP connections. Before the WebSocket upgrade
// completes, none of them counts among the 64 waiting or the 64 handshaking connections: each used
// to be kept, a descriptor apiece, until Node's 60 s header timeout, so a flood ran the daemon out
// of descriptors (its state writes and the server's own reconnection with them).

const FLOOD = 300;

/** The most memory `pid` has held resident so far, in MiB (the kernel's high-water mark). */
function peakResidentMib(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;
}

/** `count` raw TCP connections to `port` that never complete an upgrade: silent, or stopped mid-request. */
function rawFlood(port: number, count: number): { open: () => number } {
  const sockets: Socket[] = [];
  for (let index = 0; index < count; index += 1) {
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    if (index % 2 === 1) socket.write("GET /runner/v1 HTTP/1.1\r\nHost: x\r\n");
    sockets.push(socket);
  }
  onTestFinished(() => {
    for (const socket of sockets) socket.destroy();
  });
  return { open: () => sockets.filter((socket) => !socket.closed && !socket.readableEnded).length };
}

describe("listen mode against raw connections that never upgrade", { timeout: 60_000 }, () => {
  it("keeps at most 64 of them, closes the rest in time, and still serves the server", async () => {
    const runner = await listeningRunner();
    const server = runner.first;
    await server.handshake(TICKET);
    const lease = "lease_00000000-0000-4000-8000-0000000000dd";
    server.welcome({ connectionLeaseToken: lease });
    server.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await server.resultOf("prepare")).toMatchObject({ status: "completed" });

    const flood = rawFlood(runner.port, FLOOD);
    // The oldest are closed as new ones arrive; the 64 left go once their request is overdue.
    await vi.waitFor(() => expect(flood.open()).toBeLessThanOrEqual(64), { timeout: 20_000, interval: 50 });
    await vi.waitFor(() => expect(flood.open()).toBe(0), { timeout: 30_000, interval: 100 });

    // The server reconnects with its lease behind the flood and is served.
    server.close();
    const again = await servedAgain(runner, lease);
    again.close();
  });
});

describe("listen mode against peers that stream before proving themselves", { timeout: 60_000 }, () => {
  it("closes a peer past 128 KiB before its proof: 64 streaming 3 MiB each add no 200 MiB", async () => {
    const runner = await listeningRunner();
    const pid = runner.child.pid as number;
    const before = peakResidentMib(pid);
    const fragment = Buffer.alloc(1024 * 1024, 0x61);
    const peers = Array.from({ length: 64 }, () => {
      const peer = new WebSocket(`ws://127.0.0.1:${runner.port}/runner/v1`);
      peer.on("error", () => undefined);
      // Three fragments of one text message, never finished: the library holds them until the
      // message ends or the connection does.
      peer.on("open", () => {
        for (let index = 0; index < 3; index += 1) peer.send(fragment, { fin: false, binary: false });
      });
      return new Promise<void>((resolve) => peer.once("close", () => resolve()));
    });
    await Promise.all(peers);
    // Before the bound the peak rose by over 200 MiB; a peer's 128 KiB times 64 is 8 MiB.
    expect(peakResidentMib(pid) - before).toBeLessThan(64);
    // The server behind them is still served.
    const server = await peerOn(runner.port, runner.child);
    await server.handshake(TICKET);
    server.welcome();
    server.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await server.resultOf("prepare")).toMatchObject({ status: "completed" });
    server.close();
  });
});
