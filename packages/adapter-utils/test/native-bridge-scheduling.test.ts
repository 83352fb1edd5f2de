import { spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { nativeBridgePath } from "../src/bridge/native-bridge-path.js";
import { cleanupAll, onCleanup, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

const SCHED_OTHER = 0;
const SCHED_BATCH = 3;

/** A thread's scheduling policy: field 41 of its `stat` (proc(5)), counted after the command's `)`. */
function policyOf(statPath: string): number {
  const stat = readFileSync(statPath, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[41 - 3]);
}

/** A Unix socket standing in for the host proxy: it accepts and holds every connection. */
async function holdingProxy(socketPath: string) {
  const held: Socket[] = [];
  const server = createServer((socket) => held.push(socket));
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  onCleanup(async () => {
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return server;
}

describe("the native bridge's scheduling", () => {
  it("relays on SCHED_BATCH threads, so a woken relay does not preempt its writer; its main thread and the program keep the default", async () => {
    const binary = nativeBridgePath();
    if (!binary) throw new Error("no package root found for the native bridge");
    const proxyPath = path.join(scratchDir(), "proxy.sock");
    const proxy = await holdingProxy(proxyPath);
    // A loopback address of its own (all of 127/8 is local): the port is free without a lookup.
    const host = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
    const bridge = spawn(binary, [`${host}:31337`, proxyPath, "/bin/sh", "-c", "echo $$; exec sleep 30"]);
    onCleanup(async () => {
      bridge.kill("SIGKILL");
    });
    const programPid = await new Promise<number>((resolve, reject) => {
      bridge.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      bridge.once("exit", (code) => reject(new Error(`the bridge exited ${code}`)));
    });
    // The bridge listens before it starts the program; once its connection reaches the proxy,
    // the connection's thread is running.
    const relayed = new Promise<void>((resolve) => proxy.once("connection", () => resolve()));
    const client = connect(31337, host);
    client.on("error", () => {});
    onCleanup(async () => {
      client.destroy();
    });
    await relayed;
    const taskDir = `/proc/${bridge.pid}/task`;
    const threads = readdirSync(taskDir).map(Number);
    const policies = threads
      .filter((tid) => tid !== bridge.pid)
      .map((tid) => policyOf(`${taskDir}/${tid}/stat`));
    // The acceptor and the connection's thread.
    expect(policies).toEqual([SCHED_BATCH, SCHED_BATCH]);
    expect(policyOf(`${taskDir}/${bridge.pid}/stat`)).toBe(SCHED_OTHER);
    expect(policyOf(`/proc/${programPid}/stat`)).toBe(SCHED_OTHER);
  });
});
