import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { signedChallenge } from "./helpers/hand-made-handshake.js";
import { handMadeServer } from "./helpers/hand-made-prp-server.js";
import { HAND_MADE_TICKET, type HandMadeRun, spawnHandMadeRunner } from "./helpers/hand-made-runner.js";
import {
  expectStaysOpen,
  type Runner,
  startRunner,
  welcomedRunner,
} from "./helpers/hand-made-side-by-side.js";
import { upstreamRunner } from "./helpers/upstream-runner.js";

// Side by side: our runner and upstream's Rust runner (2026.916.1) against the same hand-made
// server, over the lease's life: a server `revoke` (and a relaunch after it), a `lease_renewed` not
// asked for or moving the expiry back, a renewal unanswered or committed across a reconnect, a
// welcome without the renewal version, a welcome or a reconnect's challenge naming an expiry
// already passed. Both act alike (docs/compatibility.md, "leases and reconnect"), but for the
// relaunch's exit.

const lifecycle = async (stateDir: string): Promise<unknown> =>
  (JSON.parse(await readFile(join(stateDir, "runner-state.json"), "utf8")) as { lifecycle: unknown })
    .lifecycle;

const stopped = async (run: HandMadeRun): Promise<void> => expect(await run.closed).toBe(1);

describe.each<Runner>(["upstream", "ours"])("%s runner, the lease's life", { timeout: 60_000 }, (which) => {
  it("a revoke above the authenticated epoch: exit 0, the state says revoked", async () => {
    const { run, conn, stateDir } = await welcomedRunner(which, { connectionLeaseRevocationEpoch: 2 });
    conn.send({ kind: "revoke", payload: { revocationEpoch: 3 } });
    expect(await run.closed).toBe(0);
    expect(await lifecycle(stateDir)).toBe("revoked");
  });

  it("a relaunch on the revoked state with a fresh ticket: no handshake, the state left revoked", async () => {
    const { server, run, conn, stateDir } = await welcomedRunner(which, {
      connectionLeaseRevocationEpoch: 2,
    });
    conn.send({ kind: "revoke", payload: { revocationEpoch: 3 } });
    expect(await run.closed).toBe(0);
    const revokedState = await readFile(join(stateDir, "runner-state.json"), "utf8");
    const relaunched = spawnHandMadeRunner({
      endpoint: ["--connect-url", server.url],
      stateDir,
      ticket: "bootstrap_00000000-0000-4000-8000-0000000000bb",
      ...(which === "upstream" ? { command: [upstreamRunner()] as const } : {}),
    });
    // Upstream's runner exits at once, 0, saying nothing; ours says why, with a code, and exits 1
    // (docs/compatibility.md): it refused, it did not end a run (the server's launcher takes both
    // exits alike; the code tells an operator).
    if (which === "upstream") expect(await relaunched.closed).toBe(0);
    else {
      expect(await relaunched.closed).toBe(1);
      expect(relaunched.stderr()).toContain("code: ERR_RUNNER_DURABLE_STATE_REVOKED");
    }
    expect(await readFile(join(stateDir, "runner-state.json"), "utf8")).toBe(revokedState);
    // Neither opens a connection (ours dialled one ahead, closed unused, until 2026-12-06).
    expect(server.takeArrived()).toEqual([]);
  });

  it.each([
    ["the same epoch", 2],
    ["a lower epoch", 1],
    ["no epoch", undefined],
  ])("a revoke naming %s: stops (exit 1), not revoked", async (_name, epoch) => {
    const { run, conn, stateDir } = await welcomedRunner(which, { connectionLeaseRevocationEpoch: 2 });
    conn.send({ kind: "revoke", payload: { revocationEpoch: epoch } });
    await stopped(run);
    expect(await lifecycle(stateDir)).not.toBe("revoked");
  });

  it("a lease_renewed never asked for, naming the current expiry: stops", async () => {
    const { run, conn } = await welcomedRunner(which);
    conn.grantLease(120_000);
    await stopped(run);
  });

  it("a lease_renewed moving the expiry back: stops", async () => {
    const { run, conn } = await welcomedRunner(which, { connectionLeaseExpiresAtUnixMs: Date.now() + 2_000 });
    const asked = await conn.renewalAsked();
    conn.answerRenewal(asked, asked - 500);
    await stopped(run);
  });

  it("a lease_renew left unanswered is asked again before the lapse; both answers are taken", async () => {
    // 16 s: asked at 8 s and again at 12 s, the answer has 4 s to arrive before the lapse, ample
    // on a loaded 2-core machine (the test waits on the asks, never on a clock).
    const { run, conn } = await welcomedRunner(which, {
      connectionLeaseExpiresAtUnixMs: Date.now() + 16_000,
    });
    const asked = await conn.renewalAsked();
    const isRenew = (message: Record<string, unknown>): boolean => message.kind === "lease_renew";
    expect(await conn.waitFor((m) => isRenew(m) && conn.received.filter(isRenew).length >= 2)).not.toBeNull();
    const renewedTo = conn.now() + 60_000;
    conn.answerRenewal(asked, renewedTo);
    conn.answerRenewal(asked, renewedTo);
    await expectStaysOpen(conn);
    expect(run.child.exitCode).toBeNull();
  });

  it("a lease reconnect whose client proof the server closes on is tried again", async () => {
    const leaseToken = `lease_${randomUUID()}`;
    const { server, run, conn } = await welcomedRunner(which, { connectionLeaseToken: leaseToken });
    conn.close();
    const refusing = await server.nextConnection();
    await refusing.handshake(leaseToken);
    refusing.close();
    expect(await Promise.race([server.nextConnection(), run.closed.then(() => null)])).not.toBeNull();
  });

  it("three lease reconnects in a row whose client proof the server closes on", async () => {
    const leaseToken = `lease_${randomUUID()}`;
    const { server, run, conn } = await welcomedRunner(which, { connectionLeaseToken: leaseToken });
    conn.close();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const refusing = await server.nextConnection();
      await refusing.handshake(leaseToken);
      refusing.close();
    }
    // Upstream's runner tries again without a bound; ours stops at the third close, with the
    // server-proof error (docs/compatibility.md): the server closes so on what is final too.
    const after = await Promise.race([
      server.nextConnection().then(() => "dialled again"),
      run.closed.then((code) => `exit ${code}`),
    ]);
    if (which === "upstream") {
      expect(after).toBe("dialled again");
      run.child.kill("SIGKILL");
    } else {
      expect(after).toBe("exit 1");
      expect(run.stderr()).toContain("code: ERR_RUNNER_DURABLE_SERVER_PROOF");
    }
  });

  it("a welcome naming no connectionLeaseRenewalVersion: no lease_renew, the lease lapses", async () => {
    const { run, conn } = await welcomedRunner(which, {
      connectionLeaseRenewalVersion: undefined,
      connectionLeaseExpiresAtUnixMs: Date.now() + 1_000,
    });
    await stopped(run);
    expect(conn.received.filter((message) => message.kind === "lease_renew")).toEqual([]);
  });

  it("a ticket's welcome granting a lease already expired: stops", async () => {
    const { run } = await welcomedRunner(which, { connectionLeaseExpiresAtUnixMs: Date.now() - 1_000 });
    await stopped(run);
  });

  it("a reconnect's challenge naming a lease expiry already passed is not answered", async () => {
    const server = await handMadeServer();
    const run = startRunner(which, server.url);
    const leaseToken = `lease_${randomUUID()}`;
    const first = await server.nextConnection();
    await first.handshake(HAND_MADE_TICKET);
    const expiry = first.now() + 60_000;
    first.welcome({ connectionLeaseToken: leaseToken, connectionLeaseExpiresAtUnixMs: expiry });
    first.close();
    const next = await server.nextConnection();
    const hello = JSON.parse((await next.nextPlain()) ?? "null") as { payload: Record<string, unknown> };
    const change = (challenge: Record<string, unknown>): void => {
      challenge.credentialExpiresAtUnixMs = expiry - 120_000;
    };
    next.sendRaw(signedChallenge(hello, leaseToken, { change }).text);
    expect(await next.nextPlain()).toBeNull();
    run.child.kill("SIGKILL");
  });
});
