import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { wireCommandFingerprint } from "../src/commands/command-fingerprint.js";
import { recoverDurableState, withCommandRecord } from "../src/durable/state/command-journal.js";
import { initialDurableState } from "../src/durable/state/durable-state.js";
import { HAND_MADE_IDENTITY } from "./helpers/hand-made-identity.js";
import { handMadeServer, PeerConnection } from "./helpers/hand-made-prp-server.js";
import { HAND_MADE_TICKET } from "./helpers/hand-made-runner.js";
import {
  heldEngine,
  inProcessRunner,
  resultAfterEngineStopped,
  welcomedRunner,
} from "./helpers/in-process-runner.js";

// The end of the command stream (`runner.shutdown`, `runner.suspend`) reaching the runner again:
// a relaunch answering it from the journal, and a reconnect after the server recorded the result
// but its ack was lost. A real loopback server, a `DurableRunner` in this process.

const SUSPEND = { commandId: "suspend", controllerSeq: 1, type: "runner.suspend" } as const;
const STOP = { commandId: "stop", controllerSeq: 1, type: "runner.shutdown" } as const;

describe("the end of the command stream, delivered again", () => {
  it("a suspension indeterminate after a crash, redelivered to the relaunch: its engine stops before the result", async () => {
    // The previous runner journalled the suspension pending and died: recovery makes it indeterminate.
    const crashed = withCommandRecord(
      initialDurableState(HAND_MADE_IDENTITY, "0.3.0", `sha256:${"0".repeat(64)}`),
      {
        ...SUSPEND,
        fingerprint: wireCommandFingerprint(PeerConnection.command(SUSPEND)),
        status: "pending",
        result: null,
      },
    );
    const server = await handMadeServer();
    const engine = heldEngine();
    const { runner, saved } = await inProcessRunner(server.url, engine, recoverDurableState(crashed).state);
    const resumed = runner.run();
    resumed.catch(() => undefined);
    const conn = await server.nextConnection();
    await conn.handshake(HAND_MADE_TICKET);
    conn.welcome({ pendingCommands: [PeerConnection.command(SUSPEND)] });
    // Whether the first runner stopped its harness is unknown; the server asked to suspend, so this one does.
    expect(await resultAfterEngineStopped(engine, conn, "suspend")).toMatchObject({
      status: "indeterminate",
    });
    await resumed;
    expect(saved.at(-1)).toMatchObject({ lifecycle: "suspended", recoverableFailure: null });
  });

  it("a shutdown result the server recorded, its ack lost: sent again after the next welcome, then acked", async () => {
    const leaseToken = `lease_${randomUUID()}`;
    const server = await handMadeServer();
    const engine = heldEngine();
    engine.finish();
    const { running, saved, conn } = await welcomedRunner(server, engine, leaseToken);
    conn.sendCommand(STOP);
    const result = await conn.resultOf("stop");
    expect(result).toMatchObject({ status: "completed" });
    // The server stored the result; the connection drops before its ack reaches the runner.
    conn.close();
    const next = await server.nextConnection();
    await next.handshake(leaseToken);
    // The server redelivers only pending commands: this welcome carries none.
    next.welcome();
    expect(await next.resultOf("stop")).toEqual(result);
    // The server answers a duplicate of a stored result with an ack, and the runner leaves.
    next.send({ kind: "command_result_ack", payload: { commandId: "stop" } });
    await running;
    expect(saved.at(-1)).toMatchObject({ lifecycle: "stopped", recoverableFailure: null });
  });
});
