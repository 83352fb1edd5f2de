import { randomUUID } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { acceptProvenServer } from "../src/durable/transport/accept-proven-server.js";
import { credentialMaterial } from "../src/durable/transport/credential.js";
import { TEST_DURABLE_IDENTITY } from "./helpers/durable-identity.js";
import { type HandMadeServer, handMadeServer, type PeerConnection } from "./helpers/hand-made-prp-server.js";
import { heldEngine, welcomedRunner } from "./helpers/in-process-runner.js";

// When a durable run ends (failed, or its stream ended), its connection to the server ends with
// it: `run()` returns only once no socket of the run is open and no reconnect can follow. A failed
// run used to go on reconnecting: a server (or, in a test, the next test's server on a reused
// port) welcomed a runner that had stopped, and a handshake it held open timed out later.

const LEASE_TOKEN = `lease_${randomUUID()}`;
/** The hand-made runner's `--reconnect-delay-ms`: a reconnect of the old code came one delay after the close. */
const RECONNECT_DELAY_MS = 50;

/** Whether each socket the runner opened is closed (on the runner's side). */
const closedStates = (sockets: readonly WebSocket[]): boolean[] =>
  sockets.map((socket) => socket.readyState === WebSocket.CLOSED);

/** Called as run() returned: its one connection `conn` is closed, and no reconnect reaches `server` after it. */
async function expectLeftForGood(
  server: HandMadeServer,
  conn: PeerConnection,
  dialled: readonly WebSocket[],
): Promise<void> {
  expect(closedStates(dialled)).toEqual([true]);
  await conn.closed;
  // Far past the delay after which the old code dialled again.
  await delay(10 * RECONNECT_DELAY_MS);
  expect(server.takeArrived()).toEqual([]);
}

describe("a durable run's end stops its connection", () => {
  it("a run refused on a bad frame: its socket closed when run() returns, and no reconnect", async () => {
    const server = await handMadeServer();
    const { conn, running, dialled } = await welcomedRunner(server, heldEngine(), LEASE_TOKEN);
    // Not advancing the epoch: a bad frame, the run fails.
    conn.send({ kind: "revoke", payload: { revocationEpoch: 2 } });
    await expect(running).rejects.toMatchObject({ code: "ERR_RUNNER_DURABLE_FRAME_INVALID" });
    await expectLeftForGood(server, conn, dialled);
  });

  it("a run whose shutdown's result is acknowledged: no reconnect after it leaves", async () => {
    const server = await handMadeServer();
    const engine = heldEngine();
    const { conn, running, dialled } = await welcomedRunner(server, engine, LEASE_TOKEN);
    conn.sendCommand({ commandId: "stop", controllerSeq: 1, type: "runner.shutdown" });
    await engine.shutdownAsked;
    engine.finish();
    expect(await conn.resultOf("stop")).toMatchObject({ status: "completed" });
    conn.send({ kind: "command_result_ack", payload: { commandId: "stop" } });
    await running;
    await expectLeftForGood(server, conn, dialled);
  });

  it("a run that fails while its reconnect waits for the server's challenge: that socket closed when run() returns", async () => {
    const server = await handMadeServer();
    const engine = heldEngine();
    const { conn, running, dialled } = await welcomedRunner(server, engine, LEASE_TOKEN);
    conn.close();
    const reconnect = await server.nextConnection();
    // The runner sent its hello and waits (up to its handshake step timeout) for the challenge.
    expect(await reconnect.nextPlain()).toContain("auth_hello");
    engine.crash(new Error("the harness died"));
    await expect(running).rejects.toThrow("the harness died");
    // Closed by the run's end, not left for the step timeout to close seconds later.
    expect(closedStates(dialled)).toEqual([true, true]);
    await reconnect.closed;
    expect(server.takeArrived()).toEqual([]);
  });
});

describe("listen mode: the wait for a proven server withdrawn", () => {
  const HELLO_INPUT = {
    credential: credentialMaterial("bootstrap_ticket"),
    lease: null,
    identity: TEST_DURABLE_IDENTITY,
    runnerVersion: "0.1.0",
    runnerDigest: `sha256:${"a".repeat(64)}`,
  };

  /** A loopback WebSocket server whose connections `next` hands over in order, as listen mode's dialer does. */
  async function acceptingServer() {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await once(wss, "listening");
    onTestFinished(() => new Promise<void>((resolve) => wss.close(() => resolve())));
    const accepted: WebSocket[] = [];
    const arrivals: ((socket: WebSocket) => void)[] = [];
    wss.on("connection", (socket) => {
      const take = arrivals.shift();
      if (take === undefined) accepted.push(socket);
      else take(socket);
    });
    /** A client connecting to the server, closed after the test. */
    const peer = (): WebSocket => {
      const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`);
      onTestFinished(() => client.terminate());
      return client;
    };
    return {
      accepted,
      peer,
      next: async (): Promise<WebSocket> =>
        accepted.shift() ?? (await new Promise<WebSocket>((resolve) => arrivals.push(resolve))),
    };
  }

  it("aborted: rejects with the reason, and the handshake under way is closed", async () => {
    const server = await acceptingServer();
    const stop = new AbortController();
    const waiting = acceptProvenServer(server.next, HELLO_INPUT, () => undefined, null, stop.signal);
    waiting.catch(() => undefined);
    // A peer that connects, takes the hello, and stays silent.
    const peer = server.peer();
    const [hello] = await once(peer, "message");
    expect(String(hello)).toContain("auth_hello");
    const reason = new Error("the run ended");
    stop.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await once(peer, "close");
  });

  it("aborted before it starts: takes no connection, the one waiting is left for the next taker", async () => {
    const server = await acceptingServer();
    server.peer();
    await vi.waitFor(() => expect(server.accepted).toHaveLength(1));
    const reason = new Error("the run ended");
    await expect(
      acceptProvenServer(server.next, HELLO_INPUT, () => undefined, null, AbortSignal.abort(reason)),
    ).rejects.toBe(reason);
    expect(server.accepted).toHaveLength(1);
  });
});
