import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { isAlive } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { withWork } from "./helpers/codex-durable.js";
import { codexOnHandMadeServer } from "./helpers/codex-on-hand-made-server.js";
import { handMadeServer } from "./helpers/hand-made-prp-server.js";
import { durableState, HAND_MADE_TICKET, launchRunner } from "./helpers/hand-made-runner.js";

// The server's `revoke` (upstream's runner: "connection capability was revoked"): a revocation
// epoch above the authenticated one ends the run at once, the provider stopped, the state kept with
// `lifecycle: "revoked"`, exit 0, no reconnect; a relaunch on that state refuses to resume it. One
// that does not advance the epoch is a bad frame.
// The built bin against the hand-made server, on loopback, with the fake Codex app-server.

describe("a server revoke", { timeout: 60_000 }, () => {
  it("above the authenticated epoch: the provider is stopped, the state says revoked, exit 0", async () => {
    await withWork(async (work) => {
      const { server, stateDir, launch, openSession } = await codexOnHandMadeServer(work);
      const run = launch();
      const { conn, opened, pid } = await openSession({ connectionLeaseRevocationEpoch: 2 });
      expect(opened).toMatchObject({ result: { status: "started" } });
      expect(isAlive(pid)).toBe(true);
      conn.send({ kind: "revoke", payload: { revocationEpoch: 3 } });
      // Sent behind the revoke: never applied.
      conn.sendCommand({ commandId: "drain", controllerSeq: 3, type: "runner.drain" });
      expect(await run.closed).toBe(0);
      const stderr = run.stderr();
      expect(stderr).toContain(
        "ERR_RUNNER_DURABLE_LEASE_REVOKED: connection lease revoked by the server at revocation epoch 3",
      );
      expect(isAlive(pid)).toBe(false);
      const state = await durableState(stateDir);
      expect(state.lifecycle).toBe("revoked");
      expect(state.recoverableFailure).toBeNull();
      expect(state.diagnostics.at(-1)).toMatch(/^ERR_RUNNER_DURABLE_LEASE_REVOKED: /);
      expect(state.processedCommands.open).toMatchObject({ status: "done" });
      expect(state.processedCommands.drain).toBeUndefined();
      expect(conn.resultsOf("drain")).toEqual([]);

      // A runner launched again for the run gets the same directory (the server's launcher keeps
      // one per run): the revoked run is not resumed (no handshake, no provider), and the state
      // file stays as the revocation left it.
      const revokedState = await readFile(join(stateDir, "runner-state.json"), "utf8");
      const relaunched = launch({ ticket: "bootstrap_00000000-0000-4000-8000-0000000000bb" });
      expect(await relaunched.closed).toBe(1);
      expect(relaunched.stderr()).toContain("code: ERR_RUNNER_DURABLE_STATE_REVOKED");
      expect(relaunched.stderr()).not.toContain("resuming durable state");
      // Refused before anything is dialled (the first connection opens only once the state is
      // found servable): no connection, so no auth_hello spends the ticket.
      expect(server.takeArrived()).toEqual([]);
      expect(await readFile(join(stateDir, "runner-state.json"), "utf8")).toBe(revokedState);
    });
  });

  it.each([
    ["the same epoch", 2, "does not advance the authenticated 2"],
    ["a lower epoch", 1, "does not advance the authenticated 2"],
    ["no epoch", undefined, "is not a non-negative integer"],
  ])("naming %s: a bad frame, the run stops with its state kept", async (_name, epoch, says) => {
    const server = await handMadeServer();
    const runner = launchRunner(server.url);
    const conn = await server.nextConnection();
    await conn.handshake(HAND_MADE_TICKET);
    conn.welcome({ connectionLeaseRevocationEpoch: 2 });
    conn.send({ kind: "revoke", payload: { revocationEpoch: epoch } });
    const { code, stderr } = await runner.exited;
    expect(code).toBe(1);
    expect(stderr).toContain("code: ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect(stderr).toContain(says);
    expect((await durableState(runner.stateDir)).lifecycle).toBe("recoverable_failure");
  });
});
