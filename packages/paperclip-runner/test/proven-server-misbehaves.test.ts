import { randomUUID } from "node:crypto";
import { isAlive } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { credentialMaterial } from "../src/durable/transport/credential.js";
import { signedChallenge } from "./helpers/hand-made-handshake.js";
import { handMadeServer, PeerConnection } from "./helpers/hand-made-prp-server.js";
import { HAND_MADE_TICKET, launchRunner } from "./helpers/hand-made-runner.js";
import { expectStoppedWith } from "./helpers/prepared-runner.js";

// A peer that proves the credential and then misbehaves, or answers the handshake with material
// from another message or session. The runner is the built bin, every socket a real one. Each
// attack must end in a coded refusal (the state kept for the next runner) or be harmless; none
// may get a frame applied.

const TICKET = HAND_MADE_TICKET;
const LEASE_TOKEN = `lease_${randomUUID()}`;

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
