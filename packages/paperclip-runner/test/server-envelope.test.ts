import { describe, expect, it } from "vitest";
import { handMadeServer, PeerConnection } from "./helpers/hand-made-prp-server.js";
import { durableState, HAND_MADE_TICKET, launchRunner } from "./helpers/hand-made-runner.js";

// Every server message names, at its top level, the connection, lease, run and version it is for
// (the server's `#controlEnvelope`). One that names another is refused before anything in it is
// applied: the runner stops with ERR_RUNNER_DURABLE_FRAME_INVALID (reason `envelope`), its journal
// kept. The built bin against the hand-made server, on loopback.

describe("a server message addressed elsewhere", { timeout: 30_000 }, () => {
  it.each([
    ["another lease", { connectionLeaseId: "lease-2" }, "connectionLeaseId"],
    ["another connection", { connectionId: "connection_2" }, "connectionId"],
    ["another run", { runId: "run-2" }, "runId"],
    ["another version", { version: 1 }, "version"],
  ])(
    "a command for %s is not applied, and the run stops with its journal kept",
    async (_name, envelope, field) => {
      const server = await handMadeServer();
      const runner = launchRunner(server.url);
      const conn = await server.nextConnection();
      await conn.handshake(HAND_MADE_TICKET);
      conn.welcome();
      conn.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
      expect(await conn.resultOf("prepare")).toMatchObject({ status: "completed" });
      conn.send({
        kind: "command",
        ...envelope,
        payload: PeerConnection.command({ commandId: "drain", controllerSeq: 2, type: "runner.drain" }),
      });
      const { code, stderr } = await runner.exited;
      expect(code).toBe(1);
      expect(stderr).toContain("code: ERR_RUNNER_DURABLE_FRAME_INVALID");
      expect(stderr).toContain(`the server's command is not addressed to this connection (${field})`);
      expect(conn.resultsOf("drain")).toEqual([]);
      const state = await durableState(runner.stateDir);
      expect(state.lifecycle).toBe("recoverable_failure");
      expect(state.processedCommands.prepare).toMatchObject({ status: "done" });
      expect(state.processedCommands.drain).toBeUndefined();
    },
  );

  it("a welcome whose envelope names another lease than its payload grants is refused", async () => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    await conn.handshake(HAND_MADE_TICKET);
    conn.send({ ...conn.welcomeMessage(), connectionLeaseId: "lease-2" });
    const { code, stderr } = await runner.exited;
    expect(code).toBe(1);
    expect(stderr).toContain("the server's welcome is not addressed to this connection (connectionLeaseId)");
  });
});
