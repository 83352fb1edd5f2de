import { describe, expect, it } from "vitest";
import { handMadeServer, PeerConnection } from "./helpers/hand-made-prp-server.js";
import { durableState, HAND_MADE_TICKET, launchRunner } from "./helpers/hand-made-runner.js";
import { expectStoppedWith, preparedRunner } from "./helpers/prepared-runner.js";

// A red team's inputs to the durable runner that nobody's scripted server sends: a hand-made
// PRP server (correct crypto, hostile content) drives the built bin. Here the handshake, the
// welcome, the lease and the acks; each attack ends in a coded error or the answer the protocol
// states, with the state directory resumable and no process left.

describe("the durable runner against a hostile server: handshake, welcome, lease, acks", {
  timeout: 30_000,
}, () => {
  it("applies frames the server sends right behind the welcome (read in the same chunk)", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    await conn.handshake(HAND_MADE_TICKET);
    // One TCP write: the welcome and a command. The command used to be dropped between the
    // handshake's reader and the connection's (and every later frame refused as out of order).
    const prepare = PeerConnection.command({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    conn.sendTogether([conn.welcomeFrame(), conn.seal({ kind: "command", payload: prepare })]);
    conn.sendCommand({ commandId: "drain", controllerSeq: 2, type: "runner.drain" });
    expect(await conn.resultOf("prepare")).toMatchObject({ status: "completed" });
    expect(await conn.resultOf("drain")).toMatchObject({ status: "completed" });
    conn.sendCommand({ commandId: "stop", controllerSeq: 3, type: "runner.shutdown" });
    expect(await conn.resultOf("stop")).toMatchObject({ status: "completed" });
    conn.send({ kind: "command_result_ack", payload: { commandId: "stop" } });
    expect((await runner.exited).code).toBe(0);
  });

  it("renews a lease that ends past a timer's range (about 24.8 days) when it is due, not at once", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    await conn.handshake(HAND_MADE_TICKET);
    // 60 days: half of it does not fit a 32-bit timer, which Node then fires after 1 ms, so the
    // runner renewed at once, and again at once after each renewal the server granted.
    conn.welcome({ connectionLeaseExpiresAtUnixMs: Date.now() + 60 * 24 * 3600 * 1000 });
    conn.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await conn.resultOf("prepare")).toMatchObject({ status: "completed" });
    conn.sendCommand({ commandId: "stop", controllerSeq: 2, type: "runner.shutdown" });
    expect(await conn.resultOf("stop")).toMatchObject({ status: "completed" });
    conn.send({ kind: "command_result_ack", payload: { commandId: "stop" } });
    const { code, stderr } = await runner.exited;
    expect(code).toBe(0);
    expect(conn.received.filter((message) => message.kind === "lease_renew")).toEqual([]);
    expect(stderr).not.toContain("TimeoutOverflowWarning");
  });

  it("keeps a --max-runtime-ms past a timer's range (35 days) for when it is due", async () => {
    const { runner, conn } = await preparedRunner(["--max-runtime-ms", "3000000000"]);
    conn.sendCommand({ commandId: "turn", controllerSeq: 3, type: "turn.start", payload: { turnId: "t1" } });
    expect(await conn.resultOf("turn")).toMatchObject({ status: "completed" });
    conn.sendCommand({ commandId: "stop", controllerSeq: 4, type: "runner.shutdown" });
    expect(await conn.resultOf("stop")).toMatchObject({ status: "completed" });
    conn.send({ kind: "command_result_ack", payload: { commandId: "stop" } });
    const { code, stderr } = await runner.exited;
    expect(code).toBe(0);
    // Node fired the 35-day timer after 1 ms (before the engine ran, so the limit was lost).
    expect(stderr).not.toContain("TimeoutOverflowWarning");
  });

  for (const [name, ackedSourceSeq] of [
    ["missing", undefined],
    ["a string", "3"],
    ["a fraction", 2.5],
    ["negative", -1],
  ] as const) {
    it(`refuses an ack whose ackedSourceSeq is ${name} (ERR_RUNNER_DURABLE_FRAME_INVALID), the outbox intact`, async () => {
      const { runner, conn, harnessPid } = await preparedRunner();
      await conn.eventThrough(5);
      const before = await durableState(runner.stateDir);
      // A missing value used to empty the whole outbox and leave `ackedSourceSeq: null` behind,
      // which the next runner refused: the run could not be resumed.
      conn.ack(ackedSourceSeq);
      await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_FRAME_INVALID", harnessPid);
      const after = await durableState(runner.stateDir);
      expect(after.ackedSourceSeq).toBe(0);
      expect(after.outbox.map((entry) => entry.sourceSeq)).toEqual(
        before.outbox.map((entry) => entry.sourceSeq),
      );
      expect((await runner.exited).stderr).toContain("the server's ackedSourceSeq is not a count");
    });
  }

  it("refuses an ack for events it never sent, and a welcome acknowledging events it never produced", async () => {
    const { runner, conn, harnessPid } = await preparedRunner();
    await conn.eventThrough(5);
    conn.ack(1000);
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_FRAME_INVALID", harnessPid);
    expect((await runner.exited).stderr).toMatch(
      /the server acknowledged source seq 1000, past the last event sent \(\d+\)/,
    );
    const kept = await durableState(runner.stateDir);
    expect(kept.ackedSourceSeq).toBe(0);
    expect(kept.outbox.map((entry) => entry.sourceSeq)).toEqual(
      Array.from({ length: kept.nextSourceSeq - 1 }, (_, index) => index + 1),
    );

    const server = await handMadeServer();
    const fresh = launchRunner(server.url);
    const next = await server.nextConnection();
    await next.handshake(HAND_MADE_TICKET);
    next.welcome({ ackedSourceSeq: 7 });
    const { code, stderr } = await fresh.exited;
    expect(code).toBe(1);
    expect(stderr).toContain("the server acknowledged source seq 7, past the last event sent (0)");
    expect((await durableState(fresh.stateDir)).ackedSourceSeq).toBe(0);
  });

  for (const [name, welcome, words] of [
    [
      "a ticket handshake's welcome that grants no lease token (the ticket would be used again)",
      { connectionLeaseToken: undefined },
      "the welcome of a ticket handshake grants no connection lease token",
    ],
    [
      "a welcome whose maxBatchEvents is not a positive integer",
      { maxBatchEvents: 0.5 },
      "the welcome's maxBatchEvents is not a positive integer",
    ],
  ] as const) {
    it(`refuses ${name}, the state kept`, async () => {
      const server = await handMadeServer();
      const runner = launchRunner(server.url);
      const conn = await server.nextConnection();
      await conn.handshake(HAND_MADE_TICKET);
      conn.welcome(welcome);
      const { code, stderr } = await runner.exited;
      expect(code).toBe(1);
      expect(stderr).toContain("code: ERR_RUNNER_DURABLE_FRAME_INVALID");
      expect(stderr).toContain(words);
      expect((await durableState(runner.stateDir)).ackedSourceSeq).toBe(0);
    });
  }

  /** `message` sealed with its lease expiry's JSON (`1` in it) replaced by `expiry` (null: left out). */
  const withExpiry = (conn: PeerConnection, message: Record<string, unknown>, expiry: string | null) =>
    conn.sealEdited(message, (text) =>
      text.replace(
        '"connectionLeaseExpiresAtUnixMs":1,',
        expiry === null ? "" : `"connectionLeaseExpiresAtUnixMs":${expiry},`,
      ),
    );

  it("refuses a welcome whose lease expiry is not a finite number (1e400 reads as Infinity), the state kept", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    await conn.handshake(HAND_MADE_TICKET);
    conn.sendRaw(withExpiry(conn, conn.welcomeMessage({ connectionLeaseExpiresAtUnixMs: 1 }), "1e400"));
    const { code, stderr } = await runner.exited;
    expect(code).toBe(1);
    expect(stderr).toContain("code: ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect(stderr).toContain("the welcome's connectionLeaseExpiresAtUnixMs is not a finite number");
    expect((await durableState(runner.stateDir)).lifecycle).toBe("recoverable_failure");
  });

  for (const [name, expiry] of [
    ["1e400 (Infinity: a lease that never lapses)", "1e400"],
    ["a string", '"soon"'],
    ["missing (it used to be ignored)", null],
  ] as const) {
    it(`refuses a lease_renewed whose expiry is ${name} (ERR_RUNNER_DURABLE_FRAME_INVALID), the state kept`, async () => {
      const { runner, conn, harnessPid } = await preparedRunner();
      const renewed = {
        kind: "lease_renewed",
        payload: { connectionLeaseExpiresAtUnixMs: 1, connectionLeaseRevocationEpoch: 0 },
      };
      conn.sendRaw(withExpiry(conn, renewed, expiry));
      await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_FRAME_INVALID", harnessPid);
      expect((await runner.exited).stderr).toContain(
        "the lease_renewed's connectionLeaseExpiresAtUnixMs is not a finite number",
      );
    });
  }

  for (const [name, welcomeEpoch, renewedEpoch, words] of [
    ["raised: a renewal cannot advance it", 0, 1, "connectionLeaseRevocationEpoch 1 is not the lease's 0"],
    ["lowered below the welcome's", 2, 1, "connectionLeaseRevocationEpoch 1 goes back from the lease's 2"],
    [
      "missing (it was named back as null)",
      0,
      undefined,
      "connectionLeaseRevocationEpoch is not a non-negative integer",
    ],
    ["a fraction", 0, 0.5, "connectionLeaseRevocationEpoch is not a non-negative integer"],
  ] as const) {
    it(`refuses a lease_renewed whose revocation epoch is ${name} (ERR_RUNNER_DURABLE_FRAME_INVALID)`, async () => {
      const { runner, conn, harnessPid } = await preparedRunner([], undefined, {
        connectionLeaseRevocationEpoch: welcomeEpoch,
      });
      conn.send({
        kind: "lease_renewed",
        payload: {
          connectionLeaseExpiresAtUnixMs: conn.now() + 60_000,
          connectionLeaseRevocationEpoch: renewedEpoch,
        },
      });
      await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_FRAME_INVALID", harnessPid);
      expect((await runner.exited).stderr).toContain(words);
    });
  }

  it("refuses an auth_challenge larger than any challenge before decoding it (ERR_RUNNER_DURABLE_SERVER_PROOF)", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    expect(await conn.nextPlain()).not.toBeNull();
    // Valid JSON: it used to be decoded and parsed whole (tens of ms of the runner's loop each).
    conn.sendRaw(JSON.stringify({ padding: "x".repeat(4 * 1024 * 1024 - 100) }));
    const { code, stderr } = await runner.exited;
    expect(code).toBe(1);
    expect(stderr).toContain("code: ERR_RUNNER_DURABLE_SERVER_PROOF");
    expect(stderr).toContain("the auth_challenge is larger than 65536 bytes");
  });

  it("refuses a welcome whose revocation epoch is negative, the state kept", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    await conn.handshake(HAND_MADE_TICKET);
    conn.welcome({ connectionLeaseRevocationEpoch: -1 });
    const { code, stderr } = await runner.exited;
    expect(code).toBe(1);
    expect(stderr).toContain("code: ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect(stderr).toContain("the welcome's connectionLeaseRevocationEpoch is not a non-negative integer");
    expect((await durableState(runner.stateDir)).lifecycle).toBe("recoverable_failure");
  });
});
