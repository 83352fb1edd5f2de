import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { startOnFreePorts, tempDirForTest } from "@paperclipai/test-support";
import WebSocket from "ws";
import { PeerConnection } from "./hand-made-prp-server.js";
import { spawnHandMadeRunner } from "./hand-made-runner.js";

/** The ticket a listening runner is launched with. */
export const LISTEN_TICKET = "bootstrap_00000000-0000-4000-8000-0000000000bb";
const PATH = "/runner/v1";

export interface Listening {
  readonly child: ChildProcess;
  readonly port: number;
  readonly stateDir: string;
  readonly stderr: () => string;
  readonly exited: Promise<number | null>;
  /** The first peer to reach the port (the one that found it listening). */
  readonly first: PeerConnection;
}

/** The bin in listen mode, with the first peer that reached its port. */
export async function listeningRunner(extra: readonly string[] = []): Promise<Listening> {
  return await startOnFreePorts("the runner in listen mode", async ([port]) => {
    const stateDir = join(tempDirForTest(), "state");
    const run = spawnHandMadeRunner({
      endpoint: ["--listen-address", "127.0.0.1", "--listen-port", String(port), "--listen-path", PATH],
      stateDir,
      extra,
      ticket: LISTEN_TICKET,
      reconnectDelayMs: 10,
    });
    // EADDRINUSE in stderr is what startOnFreePorts retries on.
    const failed = run.closed.then(() => {
      throw Object.assign(new Error(`the runner exited: ${run.stderr()}`), {
        code: run.stderr().includes("EADDRINUSE") ? "EADDRINUSE" : undefined,
      });
    });
    failed.catch(() => undefined);
    const first = await Promise.race([failed, peerOn(port, run.child)]);
    return { child: run.child, port, stateDir, stderr: run.stderr, exited: run.closed, first };
  });
}

/** A peer connected to `child`'s port, retrying until it listens; throws once `child` has exited. */
export async function peerOn(port: number, child: ChildProcess): Promise<PeerConnection> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error("the runner has exited");
    const socket = new WebSocket(`ws://127.0.0.1:${port}${PATH}`);
    // Attached before the upgrade completes: the runner's hello may arrive in the same read.
    const peer = new PeerConnection(socket);
    const opened = await new Promise<boolean>((resolve) => {
      socket.once("open", () => resolve(true));
      socket.once("error", () => resolve(false));
    });
    if (opened) return peer;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The server reconnects to `runner` with its `lease`, after whatever kept the port busy, and is
 * served: its welcome taken, a drain completed, the runner still running. Returns that connection.
 */
export async function servedAgain(runner: Listening, lease: string): Promise<PeerConnection> {
  const again = await peerOn(runner.port, runner.child);
  await again.handshake(lease);
  again.welcome({ ackedSourceSeq: 0 });
  again.sendCommand({ commandId: "drain", controllerSeq: 2, type: "runner.drain" });
  if ((await again.resultOf("drain"))?.status !== "completed") throw new Error("the drain did not complete");
  if (runner.child.exitCode !== null) throw new Error(`the runner exited (${runner.child.exitCode})`);
  return again;
}
