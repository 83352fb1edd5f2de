import { randomUUID } from "node:crypto";
import { isAlive } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { credentialMaterial } from "../src/durable/transport/credential.js";
import { signedChallenge } from "./helpers/hand-made-handshake.js";
import { handMadeServer, PeerConnection } from "./helpers/hand-made-prp-server.js";
import { durableState, HAND_MADE_TICKET, type Launched, launchRunner } from "./helpers/hand-made-runner.js";
import { type Direction, mitmRelay, passThrough, type RelayedConnection } from "./helpers/mitm-relay.js";

// Durable mode's channel attacked by network peers: a man in the middle relaying the WebSocket
// (it sees and rewrites every frame but holds no key), a server that proves the credential and
// then misbehaves, and a peer that answers the handshake with material from another message or
// session. The runner is the built bin, every socket a real one. Each attack must end in a coded
// refusal (the state kept for the next runner) or be harmless; none may get a frame applied.

const TICKET = HAND_MADE_TICKET;
const LEASE_TOKEN = `lease_${randomUUID()}`;

/** The runner stopped with `code`, its state resumable; nothing from the attack was applied. */
async function expectStoppedWith(runner: Launched, code: string): Promise<void> {
  const { code: exitCode, stderr } = await runner.exited;
  expect(exitCode).toBe(1);
  expect(stderr).toContain(`code: ${code}`);
  const state = await durableState(runner.stateDir);
  expect(state.lifecycle).toBe("recoverable_failure");
  expect(state.recoverableFailure).toMatch(new RegExp(`^${code}: `));
}

/** A runner behind `relay`, handshaken and welcomed by the hand-made server with a known lease token. */
async function relayedRunner(welcome: Record<string, unknown> = {}) {
  const server = await handMadeServer();
  const relay = await mitmRelay(server.url);
  const runner = launchRunner(relay.url);
  const first = await relay.nextConnection();
  const conn = await server.nextConnection();
  await conn.handshake(TICKET);
  conn.welcome({ connectionLeaseToken: LEASE_TOKEN, ...welcome });
  conn.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
  expect(await conn.resultOf("prepare")).toMatchObject({ status: "completed" });
  return { server, relay, runner, first, conn };
}

/** Rewrites the next frame travelling `direction` with `change`; later frames pass. */
function once(
  direction: Direction,
  change: (frame: string, connection: RelayedConnection) => readonly string[],
) {
  let done = false;
  return (frame: string, travelling: Direction, connection: RelayedConnection): readonly string[] => {
    if (done || travelling !== direction) return [frame];
    done = true;
    return change(frame, connection);
  };
}

/** The runner's hello on `conn`, and the challenge a peer answers it with. */
async function answerHello(
  conn: PeerConnection,
  challenge: (hello: { payload: Record<string, unknown> }) => string,
) {
  const text = await conn.nextPlain();
  if (text === null) throw new Error("the runner closed before its hello");
  const hello = JSON.parse(text) as { payload: Record<string, unknown> };
  conn.sendRaw(challenge(hello));
  return hello;
}

describe("a man in the middle of the runner's WebSocket", { timeout: 30_000 }, () => {
  it("relays a whole run unchanged (the relay itself breaks nothing)", async () => {
    const { runner, conn } = await relayedRunner();
    conn.sendCommand({ commandId: "stop", controllerSeq: 2, type: "runner.shutdown" });
    expect(await conn.resultOf("stop")).toMatchObject({ status: "completed" });
    conn.send({ kind: "command_result_ack", payload: { commandId: "stop" } });
    expect((await runner.exited).code).toBe(0);
  });

  it("duplicating a server frame: refused as out of order, the copy not applied", async () => {
    const { relay, runner, conn } = await relayedRunner();
    relay.tamper = once("to_runner", (frame) => [frame, frame]);
    conn.sendCommand({ commandId: "drain", controllerSeq: 2, type: "runner.drain" });
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_FRAME_COUNTER");
    expect(conn.resultsOf("drain").length).toBeLessThanOrEqual(1);
  });

  it("dropping a server frame: the next one is refused as out of order", async () => {
    const { relay, runner, conn } = await relayedRunner();
    relay.tamper = once("to_runner", () => []);
    conn.sendCommand({ commandId: "dropped", controllerSeq: 2, type: "runner.drain" });
    conn.sendCommand({ commandId: "next", controllerSeq: 3, type: "runner.drain" });
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_FRAME_COUNTER");
    expect(conn.resultsOf("next")).toEqual([]);
  });

  it("swapping two server frames: refused as out of order, neither applied", async () => {
    const { relay, runner, conn } = await relayedRunner();
    let held: string | null = null;
    relay.tamper = (frame, direction) => {
      if (direction !== "to_runner") return [frame];
      if (held === null) {
        held = frame;
        return [];
      }
      return [frame, held];
    };
    conn.sendCommand({ commandId: "a", controllerSeq: 2, type: "runner.drain" });
    conn.sendCommand({ commandId: "b", controllerSeq: 3, type: "runner.drain" });
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_FRAME_COUNTER");
    expect([...conn.resultsOf("a"), ...conn.resultsOf("b")]).toEqual([]);
  });

  it("flipping one bit of a server frame's ciphertext: refused (authentication)", async () => {
    const { relay, runner, conn } = await relayedRunner();
    relay.tamper = once("to_runner", (frame) => {
      const parsed = JSON.parse(frame) as { ciphertext: string };
      const bytes = Buffer.from(parsed.ciphertext, "hex");
      bytes[0] = (bytes[0] as number) ^ 1;
      return [JSON.stringify({ ...parsed, ciphertext: bytes.toString("hex") })];
    });
    conn.sendCommand({ commandId: "flipped", controllerSeq: 2, type: "runner.drain" });
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect(conn.resultsOf("flipped")).toEqual([]);
    expect((await runner.exited).stderr).toContain("failed authentication");
  });

  it("truncating a server frame (its tag cut off): refused", async () => {
    const { relay, runner, conn } = await relayedRunner();
    relay.tamper = once("to_runner", (frame) => {
      const parsed = JSON.parse(frame) as { ciphertext: string };
      return [JSON.stringify({ ...parsed, ciphertext: parsed.ciphertext.slice(0, -32) })];
    });
    conn.sendCommand({ commandId: "cut", controllerSeq: 2, type: "runner.drain" });
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect(conn.resultsOf("cut")).toEqual([]);
  });

  it("reflecting the runner's own sealed frame back to it, counter set to the one it expects: refused (direction)", async () => {
    const { runner, first, conn } = await relayedRunner();
    // Server frames so far: the welcome and run.prepare, so the runner expects counter 2 next.
    const own = JSON.parse(first.sent.to_server.at(-1) as string) as Record<string, unknown>;
    first.inject("to_runner", JSON.stringify({ ...own, counter: 2 }));
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_FRAME_INVALID");
    // Same key schedule, other direction: the runner refuses its own words as the server's.
    expect(conn.received.filter((message) => message.kind === "command_result")).toHaveLength(1);
  });

  it("replaying an earlier connection's welcome into the next one: refused (another session's key)", async () => {
    const { server, relay, runner, first } = await relayedRunner();
    const oldWelcome = first.sent.to_runner[1] as string;
    first.cut();
    const second = await relay.nextConnection();
    const conn = await server.nextConnection();
    // The counter fits (0, the welcome's), the session does not.
    relay.tamper = (frame, direction, connection) => {
      if (connection !== second || direction !== "to_runner") return [frame];
      const parsed = JSON.parse(frame) as { kind?: string };
      return parsed.kind === "auth_challenge" ? [frame] : [oldWelcome];
    };
    await conn.handshake(LEASE_TOKEN);
    conn.welcome({ connectionLeaseToken: null });
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_FRAME_INVALID");
  });

  it("replaying the recorded ticket challenge on the lease reconnect: refused before the runner answers", async () => {
    const { server, relay, runner, first } = await relayedRunner();
    const oldChallenge = first.sent.to_runner[0] as string;
    relay.tamper = (frame, direction, connection) => {
      if (connection === first || direction !== "to_server") return [frame];
      // The lease hello never reaches the server: the relay answers with the old session's challenge.
      connection.inject("to_runner", oldChallenge);
      return [];
    };
    first.cut();
    const second = await relay.nextConnection();
    await server.nextConnection();
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_SERVER_PROOF");
    // Refused before its auth_response: the relay never gets a client proof to replay in turn.
    expect(second.sent.to_server).toHaveLength(1);
    expect(JSON.parse(second.sent.to_server[0] as string)).toMatchObject({ kind: "auth_hello" });
  });

  it("a reconnect authenticates with the lease: the spent ticket's credential is never offered again", async () => {
    const { server, relay, first } = await relayedRunner();
    const ticketHello = JSON.parse(first.sent.to_server[0] as string) as {
      payload: { credentialId: string };
    };
    expect(ticketHello.payload.credentialId).toBe(credentialMaterial(TICKET).credentialId);
    first.cut();
    const second = await relay.nextConnection();
    const conn = await server.nextConnection();
    await conn.handshake(LEASE_TOKEN);
    conn.welcome({ connectionLeaseToken: null });
    const leaseHello = JSON.parse(second.sent.to_server[0] as string) as {
      payload: { credentialId: string };
    };
    expect(leaseHello.payload.credentialId).toBe(credentialMaterial(LEASE_TOKEN).credentialId);
    // Nothing the runner sent on either connection holds the ticket or the lease token.
    const everything = [...first.sent.to_server, ...second.sent.to_server].join("\n");
    expect(everything).not.toContain(TICKET);
    expect(everything).not.toContain(LEASE_TOKEN);
  });

  it("delaying a server frame past the next (relayed in order, only late): the run goes on", async () => {
    const { relay, runner, conn } = await relayedRunner();
    let held!: (release: () => void) => void;
    const heldFrame = new Promise<() => void>((resolve) => {
      held = resolve;
    });
    relay.tamper = once("to_runner", (frame, connection) => {
      held(() => connection.inject("to_runner", frame));
      return [];
    });
    conn.sendCommand({ commandId: "late", controllerSeq: 2, type: "runner.drain" });
    // Held at the relay until the test lets it go: nothing is answered, nothing refused meanwhile.
    const release = await heldFrame;
    expect(conn.resultsOf("late")).toEqual([]);
    expect(runner.child.exitCode).toBeNull();
    release();
    expect(await conn.resultOf("late")).toMatchObject({ status: "completed" });
    conn.sendCommand({ commandId: "stop", controllerSeq: 3, type: "runner.shutdown" });
    expect(await conn.resultOf("stop")).toMatchObject({ status: "completed" });
    relay.tamper = passThrough;
    conn.send({ kind: "command_result_ack", payload: { commandId: "stop" } });
    expect((await runner.exited).code).toBe(0);
  });

  it("black-holing the connection (TCP kept open, every frame dropped): the runner stops when the lease lapses", async () => {
    // A 10 s lease from the welcome covers the setup; then nothing passes, either way (the
    // renewal asked at its half included). A lease cannot be cut short later: a lease_renewed
    // that was not asked for, or that moves the expiry back, is refused.
    const { relay, runner, conn } = await relayedRunner({
      connectionLeaseExpiresAtUnixMs: Date.now() + 10_000,
    });
    relay.tamper = () => [];
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_LEASE_EXPIRED");
    expect(conn.isOpen).toBe(false);
  });
});

describe("a server whose clock is not the runner's", { timeout: 60_000 }, () => {
  // The lease's times are the server's: a runner ahead of it by the lease's length used to lapse in
  // the tick of the welcome (and again after every restart), one behind it to keep the lease long
  // after the server had dropped it. The runner counts the time the server gave from its arrival.
  for (const [name, clockOffsetMs] of [
    ["10 minutes ahead", 10 * 60_000],
    ["10 minutes behind", -10 * 60_000],
  ] as const) {
    it(`${name}: the run proceeds, renews, and lapses after the lease's real length`, async () => {
      const server = await handMadeServer({ clockOffsetMs });
      const runner = launchRunner(server.url);
      const conn = await server.nextConnection();
      await conn.handshake(TICKET);
      // A 20 s lease from the server's now (10 minutes past, or ahead, by the runner's clock): the
      // runner asks for its renewal at its half, naming the server's expiry; the other half leaves
      // the answer time on a loaded machine.
      const short = conn.now() + 20_000;
      conn.welcome({ connectionLeaseExpiresAtUnixMs: short });
      conn.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
      expect(await conn.resultOf("prepare")).toMatchObject({ status: "completed" });
      const renewals = (): number =>
        conn.received.filter(
          (message) =>
            message.kind === "lease_renew" &&
            (message.payload as { connectionLeaseExpiresAtUnixMs?: unknown })
              .connectionLeaseExpiresAtUnixMs === short,
        ).length;
      const renewal = (count: number) => conn.waitFor(() => renewals() >= count);
      expect(await renewal(1)).not.toBeNull();
      // Renewed to the same expiry (as the server answers when its lease length adds nothing): the
      // run goes on, the runner asks again at the half of what is left, and, unanswered, lapses.
      const started = performance.now();
      conn.send({
        kind: "lease_renewed",
        payload: {
          previousExpiresAtUnixMs: short,
          connectionLeaseExpiresAtUnixMs: short,
          connectionLeaseRevocationEpoch: 0,
        },
      });
      conn.sendCommand({ commandId: "drain", controllerSeq: 2, type: "runner.drain" });
      expect(await conn.resultOf("drain")).toMatchObject({ status: "completed" });
      expect(await renewal(2)).not.toBeNull();
      const last = short;
      await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_LEASE_EXPIRED");
      // Counted from the frame's arrival (after `started`) on the runner's own timer: not at once
      // (a runner reading the lease on its own clock lapsed in the tick it arrived), nor 10 minutes
      // off. Half the lease is the bound: a timer fires late under load, never a second early.
      expect(performance.now() - started).toBeGreaterThanOrEqual(1_000);
      expect((await runner.exited).stderr).toContain(`"expiresAtUnixMs":${last}`);
    });
  }
});

describe("a server that proves the credential, then misbehaves", { timeout: 30_000 }, () => {
  it("never answering lease_renew: the runner renews once at half, then stops when the lease lapses", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    await conn.handshake(TICKET);
    conn.welcome({ connectionLeaseExpiresAtUnixMs: Date.now() + 1_500 });
    expect(await conn.waitFor((message) => message.kind === "lease_renew")).not.toBeNull();
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_LEASE_EXPIRED");
    await conn.closed;
  });

  it("renewing the lease, unasked, to a time already past: refused (FRAME_INVALID) instead of renewing in a loop", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    await conn.handshake(TICKET);
    conn.welcome();
    conn.send({
      kind: "lease_renewed",
      payload: {
        previousExpiresAtUnixMs: conn.leaseExpiry,
        connectionLeaseExpiresAtUnixMs: Date.now() - 1_000,
        connectionLeaseRevocationEpoch: 0,
      },
    });
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect(conn.received.filter((message) => message.kind === "lease_renew").length).toBeLessThanOrEqual(1);
  });

  it("selecting a PRP version the runner does not speak (0, 3), even with a valid proof: refused", async () => {
    for (const selectedVersion of [0, 3]) {
      const server = await handMadeServer();
      const runner = launchRunner(server.url);
      const conn = await server.nextConnection();
      await answerHello(
        conn,
        (hello) =>
          signedChallenge(hello, TICKET, {
            change: (challenge) => (challenge.selectedVersion = selectedVersion),
          }).text,
      );
      await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_SERVER_PROOF");
      expect((await runner.exited).stderr).toContain("protocol version this runner does not speak");
    }
  });

  it("selecting PRP 1 (an older control plane): the runner speaks 1 on that connection", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    await conn.handshake(TICKET, (challenge) => (challenge.selectedVersion = 1));
    conn.welcome();
    conn.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    const result = await conn.waitFor((message) => message.kind === "command_result");
    expect(result).toMatchObject({ version: 1 });
    runner.child.kill("SIGKILL");
  });

  it("a MAC from another message type as the server proof (client-proof, session-binding labels): refused", async () => {
    for (const label of ["paperclip-runner-client-proof-v1", "paperclip-runner-core-to-client-key-v1"]) {
      const server = await handMadeServer();
      const runner = launchRunner(server.url);
      const conn = await server.nextConnection();
      await answerHello(conn, (hello) => signedChallenge(hello, TICKET, { label }).text);
      await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_SERVER_PROOF");
      expect(await conn.nextPlain()).toBeNull();
    }
  });

  it("the runner's own hello reflected back as the challenge: refused before it answers", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    const hello = await conn.nextPlain();
    conn.sendRaw(hello as string);
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_SERVER_PROOF");
    expect(await conn.nextPlain()).toBeNull();
  });

  it("a command nested 100 000 levels deep inside a valid seal: a coded refusal, the runner alive until then", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    await conn.handshake(TICKET);
    conn.welcome();
    const depth = 100_000;
    const command = JSON.stringify({
      protocol: "paperclip.runner",
      version: 2,
      kind: "command",
      payload: PeerConnection.command({ commandId: "deep", controllerSeq: 1, type: "run.prepare" }),
    });
    // The payload object replaced by one 100 000 arrays deep (about 200 KB, well inside a frame).
    const deep = command.replace(
      '"payload":{}',
      `"payload":{"deep":${"[".repeat(depth)}${"]".repeat(depth)}}`,
    );
    conn.sendRaw(conn.sealText(deep));
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect((await runner.exited).stderr).toContain("nests deeper than 127 levels");
  });

  it("a challenge nested 30 000 levels deep, with a proof-shaped proof: a coded refusal before any MAC is computed", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    // About 60 KB: deeper than any recursion survives, within the 64 KiB a challenge may take
    // (a larger one is refused unread, by its size).
    const depth = 30_000;
    await answerHello(
      conn,
      () =>
        `{"protocol":"paperclip.runner","version":2,"kind":"auth_challenge","payload":{"serverProof":"${"0".repeat(64)}","x":${"[".repeat(depth)}${"]".repeat(depth)}}}`,
    );
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect((await runner.exited).stderr).toContain("nests deeper than 127 levels");
  });

  it("a frame over the runner's 4 MiB bound: the connection drops, the runner comes back with its lease", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url, ["--reconnect-grace-ms", "5000"]);
    const conn = await server.nextConnection();
    await conn.handshake(TICKET);
    conn.welcome({ connectionLeaseToken: LEASE_TOKEN });
    conn.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await conn.resultOf("prepare")).toMatchObject({ status: "completed" });
    conn.sendRaw("x".repeat(4 * 1024 * 1024 + 1));
    await conn.closed;
    const again = await server.nextConnection();
    const hello = await again.handshake(LEASE_TOKEN);
    expect((hello.payload as { credentialId: string }).credentialId).toBe(
      credentialMaterial(LEASE_TOKEN).credentialId,
    );
    again.welcome({ connectionLeaseToken: null });
    again.sendCommand({ commandId: "stop", controllerSeq: 2, type: "runner.shutdown" });
    expect(await again.resultOf("stop")).toMatchObject({ status: "completed" });
    again.send({ kind: "command_result_ack", payload: { commandId: "stop" } });
    expect((await runner.exited).code).toBe(0);
    expect(isAlive(runner.child.pid as number)).toBe(false);
  });
});
