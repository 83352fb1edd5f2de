import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { handMadeServer, type PeerConnection } from "./helpers/hand-made-prp-server.js";
import { HAND_MADE_TICKET, spawnHandMadeRunner } from "./helpers/hand-made-runner.js";

// The lease's renewal when the server does not answer it at once: asked again, as upstream's
// runner does, and a lease reconnect the server closes on after the proof (its lease renewed
// between its challenge and the runner's proof) tried again. The built bin
// against the hand-made server, on loopback.

const renewals = (conn: PeerConnection): number[] =>
  conn.received
    .filter((message) => message.kind === "lease_renew")
    .map(
      (message) =>
        (message.payload as { connectionLeaseExpiresAtUnixMs: number }).connectionLeaseExpiresAtUnixMs,
    );

async function welcomedRunner(payload: Record<string, unknown>) {
  const server = await handMadeServer();
  const run = spawnHandMadeRunner({
    endpoint: ["--connect-url", server.url],
    stateDir: join(tempDirForTest(), "state"),
    reconnectGraceMs: 10_000,
  });
  const conn = await server.nextConnection();
  await conn.handshake(HAND_MADE_TICKET);
  conn.welcome(payload);
  return { server, run, conn };
}

describe("a lease renewal the server does not answer at once", { timeout: 30_000 }, () => {
  it("is asked again before the lease lapses, and each answer to it is taken", async () => {
    // Asked once and left unanswered, the lease used to lapse and the run to stop. 16 s: asked at
    // 8 s and again at 12 s, the answer has 4 s to arrive before the lapse, ample on a loaded
    // 2-core machine (the test waits on the asks, never on a clock).
    const { run, conn } = await welcomedRunner({ connectionLeaseExpiresAtUnixMs: Date.now() + 16_000 });
    const asked = await conn.renewalAsked();
    const again = await conn.waitFor(
      (message) => message.kind === "lease_renew" && renewals(conn).length >= 2,
    );
    expect(again).not.toBeNull();
    expect(renewals(conn)).toEqual([asked, asked]);
    // The server answers both asks (the first arrived late): the second changes nothing.
    const renewedTo = conn.now() + 60_000;
    conn.answerRenewal(asked, renewedTo);
    conn.answerRenewal(asked, renewedTo);
    conn.sendCommand({ commandId: "drain", controllerSeq: 1, type: "runner.drain" });
    expect(await conn.resultOf("drain")).toMatchObject({ status: "completed" });
    expect(run.child.exitCode).toBeNull();
  });

  it("committed while the runner reconnects: the proof refused, the next handshake names the renewed lease", async () => {
    const leaseToken = `lease_${randomUUID()}`;
    const { server, run, conn } = await welcomedRunner({ connectionLeaseToken: leaseToken });
    conn.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await conn.resultOf("prepare")).toMatchObject({ status: "completed" });
    conn.close();
    // The server renews the lease the closed connection asked about while the runner's next
    // handshake is under way: the lease's record changed, so it closes instead of welcoming.
    const refusing = await server.nextConnection();
    await refusing.handshake(leaseToken);
    refusing.close();
    const next = await Promise.race([server.nextConnection(), run.closed.then(() => null)]);
    expect(next, run.stderr()).not.toBeNull();
    const renewedTo = conn.now() + 120_000;
    await next?.handshake(leaseToken, (challenge) => {
      challenge.credentialExpiresAtUnixMs = renewedTo;
      challenge.credentialExpiresAt = new Date(renewedTo).toISOString();
    });
    next?.welcome({ connectionLeaseExpiresAtUnixMs: renewedTo });
    next?.sendCommand({ commandId: "drain", controllerSeq: 2, type: "runner.drain" });
    expect(await next?.resultOf("drain")).toMatchObject({ status: "completed" });
    expect(run.child.exitCode).toBeNull();
  });
});
