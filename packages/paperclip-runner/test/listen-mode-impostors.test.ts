import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { PeerConnection } from "./helpers/hand-made-prp-server.js";
import {
  type Listening,
  listeningRunner,
  peerOn,
  servedAgain,
  LISTEN_TICKET as TICKET,
} from "./helpers/listening-runner.js";

// In listen mode the runner accepts whoever reaches its port first: on loopback, any local user.
// Until a peer proves it holds the ticket (a valid server proof), it is nobody: what it sends, or
// its silence, must not end the run nor keep the server that comes next from connecting.

/** The server: connects, proves the ticket, welcomes, and sees `run.prepare` applied; `onHello` runs on its hello. */
async function serverPrepares(runner: Listening, onHello: () => void = () => undefined): Promise<void> {
  const server = await peerOn(runner.port, runner.child);
  try {
    await server.handshake(TICKET, onHello);
    server.welcome();
    server.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await server.resultOf("prepare")).toMatchObject({ status: "completed" });
  } finally {
    server.close();
  }
}

describe("listen mode against peers that cannot prove the ticket", { timeout: 30_000 }, () => {
  it("drops a peer that answers the hello with garbage and serves the server after it", async () => {
    const runner = await listeningRunner();
    const impostor = runner.first;
    expect(JSON.parse((await impostor.nextPlain()) ?? "null")).toMatchObject({ kind: "auth_hello" });
    impostor.sendRaw("not json");
    await impostor.closed;
    await serverPrepares(runner);
    expect(runner.child.exitCode).toBeNull();
  });

  it("drops a peer whose challenge carries a wrong proof, without counting it against the grace", async () => {
    const runner = await listeningRunner();
    // More impostors than --reconnect-grace-ms (300 ms) of --reconnect-delay-ms (10 ms) attempts.
    for (let attempt = 0; attempt < 40; attempt += 1) {
      const impostor = attempt === 0 ? runner.first : await peerOn(runner.port, runner.child);
      await impostor.handshake("bootstrap_not-the-ticket").catch(() => undefined);
      await impostor.closed;
    }
    await serverPrepares(runner);
    expect(runner.child.exitCode).toBeNull();
  });

  it("does not let a silent peer hold the port: the server connected behind it is served", async () => {
    const runner = await listeningRunner();
    const silent = runner.first;
    expect(await silent.nextPlain()).not.toBeNull();
    // The silent peer never answers; the server, connected now, must not wait for it to time out.
    let silentOpenAtServerHello = false;
    await serverPrepares(runner, () => {
      silentOpenAtServerHello = silent.isOpen;
    });
    // The server got its hello while the silent peer's handshake was still open: beside it, not after it.
    expect(silentOpenAtServerHello).toBe(true);
    expect(runner.child.exitCode).toBeNull();
    // Once the server is in, the handshakes still pending are closed.
    await silent.closed;
  });

  it("stops with ERR_RUNNER_DURABLE_LEASE_EXPIRED once its lease lapses with no server back, impostors or not", async () => {
    const runner = await listeningRunner();
    const server = runner.first;
    await server.handshake(TICKET);
    // A ten-second lease from the welcome (a lease_renewed not asked for cannot cut it short
    // later): ten seconds cover the setup, the commands and the impostor's visit on a loaded
    // machine; the lapse ends the test.
    server.welcome({ connectionLeaseExpiresAtUnixMs: server.now() + 10_000 });
    server.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await server.resultOf("prepare")).toMatchObject({ status: "completed" });
    server.sendCommand({ commandId: "drain", controllerSeq: 2, type: "runner.drain" });
    expect(await server.resultOf("drain")).toMatchObject({ status: "completed" });
    // The server goes away; only an impostor comes, and closes after the hello as a refusing
    // server would. Neither that close nor the wait may outlive the lease.
    server.close();
    const impostor = await peerOn(runner.port, runner.child);
    expect(await impostor.nextPlain()).not.toBeNull();
    impostor.close();
    expect(await runner.exited).toBe(1);
    expect(runner.stderr()).toContain("code: ERR_RUNNER_DURABLE_LEASE_EXPIRED");
  });

  it("serves the server's reconnection past more impostors than it keeps waiting, open or gone", async () => {
    const runner = await listeningRunner();
    const server = runner.first;
    const lease = "lease_00000000-0000-4000-8000-0000000000cc";
    await server.handshake(TICKET);
    server.welcome({ connectionLeaseToken: lease });
    server.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await server.resultOf("prepare")).toMatchObject({ status: "completed" });
    // While the server is connected, impostors pile up: 40 that stay, silent, and 40 that leave.
    const staying: PeerConnection[] = [];
    for (let index = 0; index < 80; index += 1) {
      const impostor = await peerOn(runner.port, runner.child);
      if (index % 2 === 0) staying.push(impostor);
      else impostor.close();
    }
    server.close();
    const again = await servedAgain(runner, lease);
    // Every impostor was let go: none holds a connection the runner keeps.
    await Promise.all(staying.map((impostor) => impostor.closed));
    again.close();
  });

  it("never cuts short the server's handshake to make room for a flood of impostors", async () => {
    const runner = await listeningRunner();
    const server = runner.first;
    // The server has proven itself and the runner answered; the welcome is held back while
    // more impostors than the runner handshakes at once arrive, each greeted with its hello.
    await server.handshake(TICKET);
    const impostors: PeerConnection[] = [];
    for (let index = 0; index < 70; index += 1) {
      const impostor = await peerOn(runner.port, runner.child);
      expect(await impostor.nextPlain()).not.toBeNull();
      impostors.push(impostor);
    }
    server.welcome();
    server.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await server.resultOf("prepare")).toMatchObject({ status: "completed" });
    await Promise.all(impostors.map((impostor) => impostor.closed));
    server.close();
  });

  it("reads nothing from a connection that waits while the server is in", async () => {
    const runner = await listeningRunner();
    const server = runner.first;
    await server.handshake(TICKET);
    server.welcome();
    server.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await server.resultOf("prepare")).toMatchObject({ status: "completed" });
    // An impostor streams frames at a connection nobody has taken: read, each would be parsed
    // (up to 4 MiB at a time) for nothing, 64 connections at once, for as long as the run lasts.
    const impostor = await peerOn(runner.port, runner.child);
    const frame = Buffer.alloc(1024 * 1024, 0x61);
    for (let index = 0; index < 8; index += 1) impostor.sendRaw(frame);
    const impostorPort = (impostor.socket as unknown as { _socket: { localPort: number } })._socket.localPort;
    // The run goes on (a round trip through the runner's loop), and the bytes stay in the kernel.
    server.sendCommand({ commandId: "drain", controllerSeq: 2, type: "runner.drain" });
    expect(await server.resultOf("drain")).toMatchObject({ status: "completed" });
    const queue = execFileSync(
      "ss",
      ["-tnH", "state", "established", `( sport = :${runner.port} and dport = :${impostorPort} )`],
      {
        encoding: "utf8",
      },
    );
    expect(Number(queue.trim().split(/\s+/)[0])).toBeGreaterThan(0);
    impostor.close();
    server.close();
  });
});
