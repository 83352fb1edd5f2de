import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { welcomeWithBoundLease } from "./helpers/bound-lease.js";
import { signedChallenge } from "./helpers/hand-made-handshake.js";
import { handMadeServer } from "./helpers/hand-made-prp-server.js";
import { HAND_MADE_TICKET } from "./helpers/hand-made-runner.js";
import {
  expectAftermath,
  expectStaysOpen,
  type Runner,
  startRunner,
} from "./helpers/hand-made-side-by-side.js";

// Side by side: our runner and upstream's Rust runner (2026.916.1) reconnecting with the lease the
// ticket bound, against the same hand-made server, which names another lease or epoch in the
// challenge or the welcome. Both refuse the same frames: neither answers such a challenge, and
// both close the connection such a welcome opens. The outcome differs on purpose (see
// docs/compatibility.md): upstream's runner schedules another reconnect with the same lease
// ("authentication challenge changed the credential lease binding", "welcome changed the
// authenticated connection lease binding"); ours stops with a coded error, its state kept.

/** A runner welcomed with a lease of `epoch`, its connection then cut: the lease reconnect's connection. */
async function reconnecting(which: Runner, epoch: number) {
  const server = await handMadeServer();
  const run = startRunner(which, server.url);
  const leaseToken = `lease_${randomUUID()}`;
  const first = await server.nextConnection();
  await welcomeWithBoundLease(first, leaseToken, epoch);
  // Both runners hold the connection a welcome opened (upstream's sends nothing unprompted).
  await expectStaysOpen(first);
  first.close();
  return { server, run, leaseToken, next: await server.nextConnection() };
}

const challenges: [string, number, (challenge: Record<string, unknown>) => void][] = [
  ["no lease id", 0, (c) => (c.credentialLeaseId = null)],
  ["another lease id", 0, (c) => (c.credentialLeaseId = "connection_lease_2")],
  ["a lower epoch", 2, (c) => (c.revocationEpoch = 1)],
  ["a higher epoch", 2, (c) => (c.revocationEpoch = 3)],
];

const welcomes: [string, number, Record<string, unknown>][] = [
  ["another lease id", 0, { connectionLeaseId: "connection_lease_2" }],
  ["a lower epoch", 2, { connectionLeaseRevocationEpoch: 1 }],
  ["a higher epoch", 2, { connectionLeaseRevocationEpoch: 3 }],
  ["a new lease token", 0, { connectionLeaseToken: "lease_other" }],
];

describe.each<Runner>(["upstream", "ours"])(
  "%s runner, the lease the ticket bound",
  { timeout: 60_000 },
  (which) => {
    it("answers the challenge that names the bound lease and epoch, and keeps the welcome", async () => {
      const { next, leaseToken } = await reconnecting(which, 2);
      await next.handshake(leaseToken);
      next.welcome();
      await expectStaysOpen(next);
    });

    it.each(challenges)("does not answer a challenge with %s", async (_name, epoch, change) => {
      const { server, run, next, leaseToken } = await reconnecting(which, epoch);
      const hello = JSON.parse((await next.nextPlain()) ?? "null") as { payload: Record<string, unknown> };
      next.sendRaw(signedChallenge(hello, leaseToken, { change }).text);
      expect(await next.nextPlain()).toBeNull();
      await expectAftermath(which, run, server, leaseToken, "ERR_RUNNER_DURABLE_SERVER_PROOF");
    });

    it.each([
      ["another expiry", 1],
      ["no expiry", null],
    ])("stops on a lease_renewed that names %s as the one its renewal asked about", async (_name, offset) => {
      const server = await handMadeServer();
      const run = startRunner(which, server.url);
      const conn = await server.nextConnection();
      await conn.handshake(HAND_MADE_TICKET);
      // A short lease: both runners ask for its renewal within a second or so.
      conn.welcome({ connectionLeaseExpiresAtUnixMs: conn.now() + 2_000 });
      const asked = await conn.renewalAsked();
      conn.answerRenewal(offset === null ? undefined : asked + offset, asked + 60_000);
      await conn.closed;
      // Upstream's runner: "lease renewal changed the authenticated binding"; ours: the coded refusal.
      expect(await run.closed).toBe(1);
      if (which === "ours") expect(run.stderr()).toContain("code: ERR_RUNNER_DURABLE_FRAME_INVALID");
    });

    it.each(welcomes)("closes the connection whose welcome names %s", async (_name, epoch, payload) => {
      const { server, run, next, leaseToken } = await reconnecting(which, epoch);
      await next.handshake(leaseToken);
      next.welcome(payload);
      await next.closed;
      await expectAftermath(which, run, server, leaseToken, "ERR_RUNNER_DURABLE_FRAME_INVALID");
    });
  },
);
