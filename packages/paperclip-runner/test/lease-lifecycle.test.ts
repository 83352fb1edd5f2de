import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { signedChallenge } from "./helpers/hand-made-handshake.js";
import { handMadeServer } from "./helpers/hand-made-prp-server.js";
import {
  durableState,
  HAND_MADE_TICKET,
  type Launched,
  launchRunner,
  spawnHandMadeRunner,
} from "./helpers/hand-made-runner.js";

// The lease's life as the server states it: a `lease_renewed` only answers a renewal asked for
// and never moves the expiry back; the lease is renewed only under the renewal version the
// welcome names; a welcome or a reconnect's challenge naming an expiry already passed is refused.
// The built bin against the hand-made server, on loopback.

async function expectStopped(runner: Launched, code: string, message: string): Promise<void> {
  const { code: exitCode, stderr } = await runner.exited;
  expect(exitCode).toBe(1);
  expect(stderr).toContain(`code: ${code}`);
  expect(stderr).toContain(message);
  expect((await durableState(runner.stateDir)).lifecycle).toBe("recoverable_failure");
}

describe("the connection lease's life", { timeout: 30_000 }, () => {
  it("a lease_renewed never asked for, naming the current expiry: refused", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    await conn.handshake(HAND_MADE_TICKET);
    conn.welcome();
    conn.grantLease(120_000);
    await expectStopped(
      runner,
      "ERR_RUNNER_DURABLE_FRAME_INVALID",
      "the lease_renewed answers no lease_renew this runner sent on the connection",
    );
  });

  it("a lease_renewed that moves the expiry back: refused at once", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    await conn.handshake(HAND_MADE_TICKET);
    conn.welcome({ connectionLeaseExpiresAtUnixMs: conn.now() + 2_000 });
    const asked = await conn.renewalAsked();
    conn.answerRenewal(asked, asked - 500);
    await expectStopped(
      runner,
      "ERR_RUNNER_DURABLE_FRAME_INVALID",
      `the lease_renewed moves the lease's expiry back, from ${asked} to ${asked - 500}`,
    );
  });

  it.each([
    ["names none", undefined],
    ["names another", 2],
  ])(
    "a welcome whose connectionLeaseRenewalVersion %s: the lease is never renewed, and lapses",
    async (_name, version) => {
      const server = await handMadeServer();
      const runner = launchRunner(server.url);
      const conn = await server.nextConnection();
      await conn.handshake(HAND_MADE_TICKET);
      conn.welcome({
        connectionLeaseRenewalVersion: version,
        connectionLeaseExpiresAtUnixMs: conn.now() + 1_000,
      });
      await expectStopped(runner, "ERR_RUNNER_DURABLE_LEASE_EXPIRED", "connection lease expired");
      expect(conn.received.filter((message) => message.kind === "lease_renew")).toEqual([]);
    },
  );

  it("a ticket's welcome granting a lease already expired when sent: refused", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    await conn.handshake(HAND_MADE_TICKET);
    const expired = conn.now() - 1_000;
    conn.welcome({ connectionLeaseExpiresAtUnixMs: expired });
    await expectStopped(
      runner,
      "ERR_RUNNER_DURABLE_FRAME_INVALID",
      `the welcome grants a connection lease that had expired (at ${expired}) when it was sent`,
    );
  });

  it("a ticket's challenge naming an expiry already passed by this machine's clock: answered (the server's time is unknown then)", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    // The server checks the ticket when the client proof arrives; a runner whose clock is ahead
    // of the server's must not refuse a ticket the server still holds valid.
    await conn.handshake(HAND_MADE_TICKET, (challenge) => {
      challenge.credentialExpiresAtUnixMs = Date.now() - 1_000;
    });
    conn.welcome();
    conn.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await conn.resultOf("prepare")).toMatchObject({ status: "completed" });
    runner.child.kill("SIGKILL");
  });

  it("a reconnect's challenge naming a lease expiry already passed is not answered", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const leaseToken = `lease_${randomUUID()}`;
    const first = await server.nextConnection();
    await first.handshake(HAND_MADE_TICKET);
    const expiry = first.now() + 60_000;
    first.welcome({ connectionLeaseToken: leaseToken, connectionLeaseExpiresAtUnixMs: expiry });
    first.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await first.resultOf("prepare")).toMatchObject({ status: "completed" });
    first.close();
    const next = await server.nextConnection();
    const hello = JSON.parse((await next.nextPlain()) ?? "null") as { payload: Record<string, unknown> };
    const passed = expiry - 120_000;
    next.sendRaw(
      signedChallenge(hello, leaseToken, {
        change: (challenge) => {
          challenge.credentialExpiresAtUnixMs = passed;
        },
      }).text,
    );
    expect(await next.nextPlain()).toBeNull();
    await expectStopped(
      runner,
      "ERR_RUNNER_DURABLE_SERVER_PROOF",
      `the auth_challenge names a connection lease that expired at ${passed}`,
    );
  });

  it("a lease reconnect whose client proof the server closes on three times in a row: refused", async () => {
    // A grace far longer than the attempts take: only the bound on the retries ends the run.
    const server = await handMadeServer();
    const stateDir = join(tempDirForTest(), "state");
    const run = spawnHandMadeRunner({
      endpoint: ["--connect-url", server.url],
      stateDir,
      reconnectGraceMs: 20_000,
    });
    const leaseToken = `lease_${randomUUID()}`;
    const first = await server.nextConnection();
    await first.handshake(HAND_MADE_TICKET);
    first.welcome({ connectionLeaseToken: leaseToken });
    first.close();
    // The first refusal and the two retries; a fourth attempt would wait here unanswered.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const refusing = await server.nextConnection();
      await refusing.handshake(leaseToken);
      refusing.close();
    }
    expect(await run.closed).toBe(1);
    expect(run.stderr()).toContain("code: ERR_RUNNER_DURABLE_SERVER_PROOF");
    expect(run.stderr()).toContain("the server closed the connection instead of accepting the client proof");
    expect((await durableState(stateDir)).lifecycle).toBe("recoverable_failure");
  });
});
