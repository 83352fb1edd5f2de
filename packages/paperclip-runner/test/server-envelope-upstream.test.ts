import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { handMadeServer } from "./helpers/hand-made-prp-server.js";
import { HAND_MADE_TICKET } from "./helpers/hand-made-runner.js";
import {
  expectAftermath,
  expectStaysOpen,
  type Runner,
  startRunner,
} from "./helpers/hand-made-side-by-side.js";

// Side by side: our runner and upstream's Rust runner (2026.916.1) given server messages whose
// envelope names another connection, lease, run or version, against the same hand-made server.
// Both close the connection; upstream's runner then reconnects with its lease ("control identity
// mismatch closed the connection"), ours stops with ERR_RUNNER_DURABLE_FRAME_INVALID, its state
// kept (docs/compatibility.md).

/** A runner welcomed on its ticket connection, which stays open. */
async function welcomed(which: Runner, welcome: Record<string, unknown> = {}) {
  const server = await handMadeServer();
  const run = startRunner(which, server.url);
  const leaseToken = `lease_${randomUUID()}`;
  const conn = await server.nextConnection();
  await conn.handshake(HAND_MADE_TICKET);
  conn.welcome({ connectionLeaseToken: leaseToken });
  return { server, run, leaseToken, conn, welcome };
}

const envelopes: [string, Record<string, unknown>][] = [
  ["another connectionLeaseId", { connectionLeaseId: "lease-2" }],
  ["another connectionId", { connectionId: "connection_2" }],
  ["another runId", { runId: "run-2" }],
  ["another turnId", { turnId: "turn-2" }],
  ["another version", { version: 1 }],
  ["no runnerInstanceId", { runnerInstanceId: undefined }],
];

describe.each<Runner>(["upstream", "ours"])("%s runner, server envelopes", { timeout: 60_000 }, (which) => {
  it("keeps the connection an ack addressed to it arrives on", async () => {
    const { conn } = await welcomed(which);
    await expectStaysOpen(conn);
    conn.ack(0);
    await expectStaysOpen(conn);
  });

  it.each(envelopes)("closes the connection an ack naming %s arrives on", async (_name, envelope) => {
    const { server, run, leaseToken, conn } = await welcomed(which);
    await expectStaysOpen(conn);
    conn.send({ kind: "ack", ...envelope, payload: { ackedSourceSeq: 0 } });
    await conn.closed;
    await expectAftermath(which, run, server, leaseToken, "ERR_RUNNER_DURABLE_FRAME_INVALID");
  });

  it("closes the connection whose welcome names another lease at its top level than in its payload", async () => {
    const server = await handMadeServer();
    const run = startRunner(which, server.url);
    const conn = await server.nextConnection();
    await conn.handshake(HAND_MADE_TICKET);
    conn.send({ ...conn.welcomeMessage(), connectionLeaseId: "lease-2" });
    await conn.closed;
    // Upstream's runner closes it ("welcome protocol or lease identity is inconsistent") and, its
    // ticket spent on a welcome it refused, does not come back; ours stops.
    if (which === "ours") {
      expect(await run.closed).toBe(1);
      expect(run.stderr()).toContain("code: ERR_RUNNER_DURABLE_FRAME_INVALID");
    }
  });
});
