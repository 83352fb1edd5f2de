import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BOUND_LEASE_ID as LEASE_ID, welcomeWithBoundLease } from "./helpers/bound-lease.js";
import { signedChallenge } from "./helpers/hand-made-handshake.js";
import { handMadeServer, PeerConnection } from "./helpers/hand-made-prp-server.js";
import { durableState, HAND_MADE_TICKET, type Launched, launchRunner } from "./helpers/hand-made-runner.js";

// The lease a process binds with its ticket, held to on every reconnect: the challenge must name
// that lease and epoch before the runner answers it, and the welcome must continue it. A server
// (or anyone holding the lease's key) that names another lease, a stale epoch or a revocation
// the runner never saw is refused with a coded error; the run's journal and outbox are kept for
// the next runner. The built bin against the hand-made server, on loopback.

/** A runner welcomed with a lease (`epoch`), `run.prepare` journalled, then its connection cut. */
async function reconnecting(epoch = 0) {
  const server = await handMadeServer();
  const runner = launchRunner(server.url);
  const leaseToken = `lease_${randomUUID()}`;
  const first = await server.nextConnection();
  await welcomeWithBoundLease(first, leaseToken, epoch);
  first.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
  expect(await first.resultOf("prepare")).toMatchObject({ status: "completed" });
  first.close();
  return { runner, leaseToken, next: await server.nextConnection() };
}

/** Answers the runner's lease hello on `conn` with a challenge `change` edits (proven with the lease's key). */
async function challengeWith(
  conn: PeerConnection,
  leaseToken: string,
  change: (challenge: Record<string, unknown>) => void,
): Promise<void> {
  const text = await conn.nextPlain();
  if (text === null) throw new Error("the runner closed before its hello");
  const hello = JSON.parse(text) as { payload: Record<string, unknown> };
  conn.sendRaw(signedChallenge(hello, leaseToken, { change }).text);
}

/** The runner stopped with `code` and `reason`, its journal kept: the prepared run resumes from it. */
async function expectStoppedKeepingState(runner: Launched, code: string, message: string): Promise<void> {
  const { code: exitCode, stderr } = await runner.exited;
  expect(exitCode).toBe(1);
  expect(stderr).toContain(`code: ${code}`);
  expect(stderr).toContain(message);
  const state = await durableState(runner.stateDir);
  expect(state.lifecycle).toBe("recoverable_failure");
  expect(state.recoverableFailure).toMatch(new RegExp(`^${code}: `));
  expect(state.processedCommands.prepare).toMatchObject({ status: "done", type: "run.prepare" });
}

describe("the lease bound by the ticket, on a reconnect", { timeout: 30_000 }, () => {
  it.each([
    ["names no lease id", 0, (c: Record<string, unknown>) => delete c.credentialLeaseId, "credentialLeaseId"],
    [
      "names another lease id",
      0,
      (c: Record<string, unknown>) => (c.credentialLeaseId = "connection_lease_2"),
      "credentialLeaseId",
    ],
    ["names a lower epoch", 2, (c: Record<string, unknown>) => (c.revocationEpoch = 1), "revocationEpoch"],
    ["names a higher epoch", 2, (c: Record<string, unknown>) => (c.revocationEpoch = 3), "revocationEpoch"],
  ])("a challenge that %s is refused before the runner answers it", async (_name, epoch, change, field) => {
    const { runner, leaseToken, next } = await reconnecting(epoch);
    await challengeWith(next, leaseToken, change);
    // No auth_response: the runner gives no client proof for a lease it does not hold.
    expect(await next.nextPlain()).toBeNull();
    await expectStoppedKeepingState(
      runner,
      "ERR_RUNNER_DURABLE_SERVER_PROOF",
      `the auth_challenge does not name the connection lease this runner offered (${field})`,
    );
  });

  it("a challenge that names the bound lease and epoch is answered, and the run goes on", async () => {
    const { runner, leaseToken, next } = await reconnecting(2);
    await next.handshake(leaseToken);
    next.welcome();
    next.sendCommand({ commandId: "drain", controllerSeq: 2, type: "runner.drain" });
    expect(await next.resultOf("drain")).toMatchObject({ status: "completed" });
    expect(runner.child.exitCode).toBeNull();
  });

  it.each([
    ["names another lease id", 0, { connectionLeaseId: "connection_lease_2" }, "connectionLeaseId"],
    ["names a lower epoch", 2, { connectionLeaseRevocationEpoch: 1 }, "connectionLeaseRevocationEpoch"],
    ["names a higher epoch", 2, { connectionLeaseRevocationEpoch: 3 }, "connectionLeaseRevocationEpoch"],
    ["grants another lease token", 0, { connectionLeaseToken: "lease_other" }, "connectionLeaseToken"],
  ])("a welcome that %s is refused, nothing in it applied", async (_name, epoch, payload, field) => {
    const { runner, leaseToken, next } = await reconnecting(epoch);
    await next.handshake(leaseToken);
    // The welcome carries a command: a refused welcome applies none of it.
    next.welcome({
      ...payload,
      pendingCommands: [
        PeerConnection.command({ commandId: "drain", controllerSeq: 2, type: "runner.drain" }),
      ],
    });
    await expectStoppedKeepingState(
      runner,
      "ERR_RUNNER_DURABLE_FRAME_INVALID",
      `the welcome of a lease reconnect does not continue the lease it was authenticated with (${field})`,
    );
    expect(next.resultsOf("drain")).toEqual([]);
    expect((await durableState(runner.stateDir)).processedCommands.drain).toBeUndefined();
  });
});

describe("the ticket handshake", { timeout: 30_000 }, () => {
  it("a challenge that names a lease for the ticket is refused before the runner answers it", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    const text = await conn.nextPlain();
    if (text === null) throw new Error("the runner closed before its hello");
    const hello = JSON.parse(text) as { payload: Record<string, unknown> };
    conn.sendRaw(
      signedChallenge(hello, HAND_MADE_TICKET, { change: (c) => (c.credentialLeaseId = LEASE_ID) }).text,
    );
    expect(await conn.nextPlain()).toBeNull();
    const { code, stderr } = await runner.exited;
    expect(code).toBe(1);
    expect(stderr).toContain(
      "the auth_challenge does not name the bootstrap ticket this runner offered (credentialLeaseId)",
    );
    expect((await durableState(runner.stateDir)).lifecycle).toBe("recoverable_failure");
  });
});
