import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { handMadeServer, PeerConnection } from "./helpers/hand-made-prp-server.js";
import { HAND_MADE_TICKET } from "./helpers/hand-made-runner.js";
import {
  heldEngine,
  inProcessRunner,
  resultAfterEngineStopped,
  welcomedRunner,
} from "./helpers/in-process-runner.js";

// A revocation or a failure racing a `runner.shutdown`: the first terminal cause is what the state
// says, whichever write comes last. The order is the test's: the engine's run ends (and with it
// the shutdown) only when the test says. A real loopback server, a `DurableRunner` in this process.

const LEASE_TOKEN = `lease_${randomUUID()}`;
const STOP = { commandId: "stop", controllerSeq: 1, type: "runner.shutdown" } as const;

async function shutdownUnderWay() {
  const server = await handMadeServer();
  const engine = heldEngine();
  const { running, saved, conn } = await welcomedRunner(server, engine, LEASE_TOKEN);
  conn.sendCommand(STOP);
  await engine.shutdownAsked;
  return { server, conn, engine, running, saved };
}

/** The shutdown is durable and answered; the connection drops before its result is acknowledged, and the runner reconnects with the lease. */
async function reconnectedAfterShutdown() {
  const { server, conn, engine, running, saved } = await shutdownUnderWay();
  engine.finish();
  expect(await conn.resultOf("stop")).toMatchObject({ status: "completed" });
  expect(saved.at(-1)?.lifecycle).toBe("stopped");
  conn.close();
  const next = await server.nextConnection();
  await next.handshake(LEASE_TOKEN);
  next.welcome();
  return { server, next, running, saved };
}

describe("the first terminal cause names the lifecycle", () => {
  it("a revoke while the shutdown is applied: revoked, though the shutdown completes after, and no fence", async () => {
    const { conn, engine, running, saved } = await shutdownUnderWay();
    conn.send({ kind: "revoke", payload: { revocationEpoch: 3 } });
    await running;
    engine.finish();
    await engine.commandDone;
    // No runner delivers the shutdown's result again (a revoked state is never resumed): no delivery is pending.
    expect(saved.at(-1)).toMatchObject({ lifecycle: "revoked", pendingTerminalDelivery: null });
    expect(saved.at(-1)?.processedCommands.stop).toMatchObject({ status: "done" });
  });

  it("a failure while the shutdown is applied: recoverable_failure, though the shutdown completes after", async () => {
    const { conn, engine, running, saved } = await shutdownUnderWay();
    // Not advancing the epoch: a bad frame, the run fails.
    conn.send({ kind: "revoke", payload: { revocationEpoch: 2 } });
    await expect(running).rejects.toMatchObject({ code: "ERR_RUNNER_DURABLE_FRAME_INVALID" });
    engine.finish();
    await engine.commandDone;
    expect(saved.at(-1)).toMatchObject({
      lifecycle: "recoverable_failure",
      recoverableFailure: expect.stringMatching(/^ERR_RUNNER_DURABLE_FRAME_INVALID: /),
    });
  });

  it("a revoke once the shutdown is durable, before its result is acknowledged: stopped", async () => {
    const { conn, engine, running, saved } = await shutdownUnderWay();
    engine.finish();
    expect(await conn.resultOf("stop")).toMatchObject({ status: "completed" });
    conn.send({ kind: "revoke", payload: { revocationEpoch: 3 } });
    await running;
    expect(saved.at(-1)).toMatchObject({ lifecycle: "stopped", recoverableFailure: null });
    expect(saved.at(-1)?.diagnostics.at(-1)).toMatch(/^ERR_RUNNER_DURABLE_LEASE_REVOKED: /);
  });

  it("a revoke on a reconnect after the shutdown was durable: still stopped", async () => {
    const { next, running, saved } = await reconnectedAfterShutdown();
    next.send({ kind: "revoke", payload: { revocationEpoch: 3 } });
    await running;
    expect(saved.at(-1)).toMatchObject({ lifecycle: "stopped", recoverableFailure: null });
    expect(saved.at(-1)?.diagnostics.at(-1)).toMatch(/^ERR_RUNNER_DURABLE_LEASE_REVOKED: /);
  });

  it("a bad frame on a reconnect after the shutdown was durable: still stopped", async () => {
    const { next, running, saved } = await reconnectedAfterShutdown();
    next.send({ kind: "revoke", payload: { revocationEpoch: 2 } });
    await expect(running).rejects.toMatchObject({ code: "ERR_RUNNER_DURABLE_FRAME_INVALID" });
    expect(saved.at(-1)).toMatchObject({ lifecycle: "stopped", recoverableFailure: null });
    expect(saved.at(-1)?.diagnostics.at(-1)).toMatch(/^ERR_RUNNER_DURABLE_FRAME_INVALID: /);
  });

  it("a shutdown redelivered to a relaunched runner: replayed, and the state says stopped again", async () => {
    const { server, left } = await stoppedThenRefused();
    // A relaunch resumes that state; the server delivers the shutdown again with its welcome.
    const engine = heldEngine();
    engine.finish();
    const { conn, resumed, saved } = await relaunchedWithStop(server, engine, left);
    expect(await conn.resultOf("stop")).toMatchObject({ status: "completed" });
    conn.send({ kind: "command_result_ack", payload: { commandId: "stop" } });
    await resumed;
    expect(saved.at(-1)).toMatchObject({ lifecycle: "stopped", recoverableFailure: null });
  });

  it("a shutdown redelivered to a relaunched runner whose engine runs: the engine stops before the result", async () => {
    const { server, left } = await stoppedThenRefused();
    // The relaunch binds its recovered engine at once: the replayed shutdown must stop it, as applying it does.
    const engine = heldEngine();
    const { conn, resumed, saved } = await relaunchedWithStop(server, engine, left);
    // The result waits for the engine's end: `stopped` on disk is never said of a running harness.
    expect(await resultAfterEngineStopped(engine, conn, "stop")).toMatchObject({ status: "completed" });
    await resumed;
    expect(saved.at(-1)).toMatchObject({ lifecycle: "stopped", recoverableFailure: null });
  });
});

/** The first runner stops on a bad frame once its shutdown is durable: the state it leaves says stopped. */
async function stoppedThenRefused() {
  const { server, next, running, saved } = await reconnectedAfterShutdown();
  next.send({ kind: "revoke", payload: { revocationEpoch: 2 } });
  await expect(running).rejects.toMatchObject({ code: "ERR_RUNNER_DURABLE_FRAME_INVALID" });
  const left = saved.at(-1);
  expect(left?.lifecycle).toBe("stopped");
  return { server, left };
}

/** A runner relaunched on `left`, its shutdown delivered again with the welcome. */
async function relaunchedWithStop(
  server: Awaited<ReturnType<typeof handMadeServer>>,
  engine: ReturnType<typeof heldEngine>,
  left: Parameters<typeof inProcessRunner>[2],
) {
  const { runner, saved } = await inProcessRunner(server.url, engine, left);
  const resumed = runner.run();
  resumed.catch(() => undefined);
  const conn = await server.nextConnection();
  await conn.handshake(HAND_MADE_TICKET);
  conn.welcome({ pendingCommands: [PeerConnection.command(STOP)] });
  return { conn, resumed, saved };
}
