import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BOUND_LEASE_ID } from "./helpers/bound-lease.js";
import { signedChallenge } from "./helpers/hand-made-handshake.js";
import { durableState } from "./helpers/hand-made-runner.js";
import { LISTEN_TICKET, listeningRunner, peerOn } from "./helpers/listening-runner.js";

// Listen mode, on a reconnect: a peer whose challenge carries a valid proof for this hello holds
// the lease's key, so it is the server, and a challenge of its naming another lease is refused at
// once with the connect mode's coded error. It used to count as an impostor's: the runner went on
// accepting until the lease lapsed. The built bin, the hand-made server connecting to it.

describe("listen mode, a proven server naming another lease", { timeout: 30_000 }, () => {
  it("is refused at once (ERR_RUNNER_DURABLE_SERVER_PROOF), not waited out to the lease's end", async () => {
    const runner = await listeningRunner();
    const first = runner.first;
    const leaseToken = `lease_${randomUUID()}`;
    await first.handshake(LISTEN_TICKET);
    // Long enough for the reconnect; the runner that waited it out stopped with LEASE_EXPIRED.
    first.welcome({
      connectionLeaseToken: leaseToken,
      connectionLeaseId: BOUND_LEASE_ID,
      connectionLeaseExpiresAtUnixMs: first.now() + 10_000,
    });
    first.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await first.resultOf("prepare")).toMatchObject({ status: "completed" });
    first.close();
    const next = await peerOn(runner.port, runner.child);
    const hello = JSON.parse((await next.nextPlain()) ?? "null") as { payload: Record<string, unknown> };
    const change = (challenge: Record<string, unknown>): void => {
      challenge.credentialLeaseId = "connection_lease_2";
    };
    next.sendRaw(signedChallenge(hello, leaseToken, { change }).text);
    // No client proof for a lease the runner does not hold.
    expect(await next.nextPlain()).toBeNull();
    expect(await runner.exited).toBe(1);
    expect(runner.stderr()).toContain("code: ERR_RUNNER_DURABLE_SERVER_PROOF");
    expect(runner.stderr()).toContain(
      "the auth_challenge does not name the connection lease this runner offered (credentialLeaseId)",
    );
    const state = await durableState(runner.stateDir);
    expect(state.recoverableFailure).toMatch(/^ERR_RUNNER_DURABLE_SERVER_PROOF: /);
    expect(state.processedCommands.prepare).toMatchObject({ status: "done" });
  });
});
