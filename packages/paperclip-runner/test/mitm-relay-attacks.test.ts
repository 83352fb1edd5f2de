import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { credentialMaterial } from "../src/durable/transport/credential.js";
import { handMadeServer } from "./helpers/hand-made-prp-server.js";
import { HAND_MADE_TICKET, launchRunner } from "./helpers/hand-made-runner.js";
import { type Direction, mitmRelay, passThrough, type RelayedConnection } from "./helpers/mitm-relay.js";
import { expectStoppedWith } from "./helpers/prepared-runner.js";

// Durable mode's channel attacked by a man in the middle relaying the WebSocket: it sees and
// rewrites every frame but holds no key. The runner is the built bin, every socket a real one.
// Each attack must end in a coded refusal (the state kept for the next runner) or be harmless;
// none may get a frame applied.

const TICKET = HAND_MADE_TICKET;
const LEASE_TOKEN = `lease_${randomUUID()}`;

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
