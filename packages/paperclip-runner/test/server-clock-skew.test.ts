import { describe, expect, it } from "vitest";
import { handMadeServer } from "./helpers/hand-made-prp-server.js";
import { HAND_MADE_TICKET, launchRunner } from "./helpers/hand-made-runner.js";
import { expectStoppedWith } from "./helpers/prepared-runner.js";

// A server whose clock is not the runner's: the lease's times are the server's, counted by the
// runner from their arrival. The runner is the built bin, every socket a real one.

const TICKET = HAND_MADE_TICKET;

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
