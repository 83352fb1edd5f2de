import { describe, expect, it } from "vitest";
import { PeerConnection } from "./helpers/hand-made-prp-server.js";
import { durableState } from "./helpers/hand-made-runner.js";
import { expectStoppedWith, preparedRunner } from "./helpers/prepared-runner.js";

// A red team's commands to the durable runner that nobody's scripted server sends: a hand-made
// PRP server (correct crypto, hostile content) drives the built bin. Each command that breaks
// the stream's rules is answered as the protocol states, nothing of it applied or journalled.

/** The answer to a command refused before it is applied: no result, the refusal's words. */
const refused = (commandId: string, controllerSeq: number, message: string, commandType = "turn.start") => ({
  commandId,
  commandType,
  controllerSeq,
  status: "rejected",
  message,
  result: null,
});

describe("the durable runner against a hostile server: commands", { timeout: 30_000 }, () => {
  it("answers a command that breaks the seq or its shape `rejected` without applying it; one without an id is a bad frame", async () => {
    const { runner, conn, harnessPid } = await preparedRunner();
    // Upstream's runner requires contiguous seqs; these used to be applied.
    conn.sendCommand({ commandId: "ahead", controllerSeq: 9, type: "turn.start", payload: {} });
    expect(await conn.resultOf("ahead")).toEqual(refused("ahead", 9, "controllerSeq is not contiguous"));
    conn.sendCommand({ commandId: "behind", controllerSeq: 1, type: "turn.start", payload: {} });
    expect(await conn.resultOf("behind")).toMatchObject({ message: "controllerSeq is not contiguous" });
    conn.send({
      kind: "command",
      payload: {
        ...PeerConnection.command({ commandId: "schema", controllerSeq: 3, type: "turn.start" }),
        schema: "x",
      },
    });
    expect(await conn.resultOf("schema")).toMatchObject({
      status: "rejected",
      message: "unsupported command schema",
    });
    conn.send({
      kind: "command",
      payload: {
        ...PeerConnection.command({ commandId: "array", controllerSeq: 4, type: "turn.start" }),
        payload: [],
      },
    });
    expect(await conn.resultOf("array")).toMatchObject({
      status: "rejected",
      message: "invalid command: payload must be a JSON object",
    });
    // Journalled: its seq is taken and a redelivery replays the same answer.
    conn.send({
      kind: "command",
      payload: {
        ...PeerConnection.command({ commandId: "array", controllerSeq: 4, type: "turn.start" }),
        payload: [],
      },
    });
    expect(await conn.resultOf("array", 2)).toEqual(await conn.resultOf("array"));
    conn.sendCommand({ commandId: "drain", controllerSeq: 5, type: "runner.drain" });
    expect(await conn.resultOf("drain")).toMatchObject({ status: "completed" });
    // No turn ran: none of the refused turn.starts reached the harness.
    expect(conn.events().map((event) => event.eventType)).not.toContain("turn.submitted");
    const state = await durableState(runner.stateDir);
    expect(Object.keys(state.processedCommands)).toEqual(["prepare", "open", "schema", "array", "drain"]);
    expect(state.lastControllerCommandSeq).toBe(5);
    conn.send({
      kind: "command",
      payload: { ...PeerConnection.command({ commandId: "", controllerSeq: 6, type: "x" }) },
    });
    await expectStoppedWith(runner, "ERR_RUNNER_DURABLE_FRAME_INVALID", harnessPid);
  });

  it("answers a redelivered id from the journal byte for byte, and a reused id with other data `rejected`", async () => {
    const { runner, conn } = await preparedRunner();
    conn.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await conn.resultOf("prepare", 2)).toEqual(await conn.resultOf("prepare"));
    conn.sendCommand({ commandId: "open", controllerSeq: 2, type: "session.open", payload: { reuse: "x" } });
    expect(await conn.resultOf("open", 2)).toMatchObject({
      status: "rejected",
      message: "commandId was reused with different data",
    });
    expect((await durableState(runner.stateDir)).processedCommands.open?.result).toMatchObject({
      status: "completed",
    });
    conn.close();
  });

  it("refuses a new command past --command-history-limit without applying or journalling it; held ids still replay", async () => {
    const { runner, conn } = await preparedRunner(["--command-history-limit", "3"]);
    conn.sendCommand({ commandId: "drain", controllerSeq: 3, type: "runner.drain" });
    expect(await conn.resultOf("drain")).toMatchObject({ status: "completed" });
    conn.sendCommand({ commandId: "turn", controllerSeq: 4, type: "turn.start", payload: {} });
    expect(await conn.resultOf("turn")).toEqual(refused("turn", 4, "command history limit reached"));
    conn.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await conn.resultOf("prepare", 2)).toEqual(await conn.resultOf("prepare"));
    expect(conn.events().map((event) => event.eventType)).not.toContain("turn.submitted");
    const state = await durableState(runner.stateDir);
    expect(Object.keys(state.processedCommands)).toEqual(["prepare", "open", "drain"]);
    expect(state.lastControllerCommandSeq).toBe(3);
    conn.close();
  });

  for (const [name, send, code] of [
    [
      "a text frame that is not JSON",
      (conn: PeerConnection) => conn.sendRaw("not json"),
      "ERR_RUNNER_DURABLE_FRAME_INVALID",
    ],
    [
      "JSON that is not a secure frame",
      (conn: PeerConnection) => conn.sendRaw("{}"),
      "ERR_RUNNER_DURABLE_FRAME_INVALID",
    ],
    [
      "a binary frame",
      (conn: PeerConnection) =>
        conn.sendRaw(Buffer.from(conn.seal({ kind: "ack", payload: { ackedSourceSeq: 0 } })), {
          binary: true,
        }),
      "ERR_RUNNER_DURABLE_FRAME_INVALID",
    ],
    [
      "a replayed frame",
      (conn: PeerConnection) => {
        const frame = conn.seal({ kind: "ack", payload: { ackedSourceSeq: 0 } });
        conn.sendRaw(frame);
        conn.sendRaw(frame);
      },
      "ERR_RUNNER_DURABLE_FRAME_COUNTER",
    ],
  ] as const) {
    it(`stops on ${name} with ${code}, its harness gone and its state kept`, async () => {
      const { runner, conn, harnessPid } = await preparedRunner();
      const before = await durableState(runner.stateDir);
      send(conn);
      await expectStoppedWith(runner, code, harnessPid);
      const after = await durableState(runner.stateDir);
      expect(after.processedCommands).toEqual(before.processedCommands);
      expect(after.nextSourceSeq).toBeGreaterThanOrEqual(before.nextSourceSeq);
    });
  }
});
