import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PeerConnection } from "./helpers/hand-made-prp-server.js";
import { expectStaysOpen, welcomedRunner } from "./helpers/hand-made-side-by-side.js";

// Side by side: our runner and upstream's Rust runner (2026.916.1) against the same hand-made
// server, given a command whose `issuedAt` is missing, `null` or a number (the server always
// sends an ISO string, and refuses a journal holding anything else). Upstream's reads the command
// into its `Command` (`issuedAt: String`), fails, and exits 1 without answering, reconnecting or
// journalling it ("command is malformed: …"); ours answers it `rejected` and goes on. The
// difference is kept (docs/compatibility.md, the row on `pendingTerminalDelivery`, which holds
// the command journal's).

const savedState = async (stateDir: string) =>
  JSON.parse(await readFile(join(stateDir, "runner-state.json"), "utf8")) as Record<string, unknown>;

/** A runner.drain as the server sends it, its `issuedAt` replaced (`undefined`: left out). */
const drain = (commandId: string, controllerSeq: number, issuedAt?: unknown) => ({
  kind: "command",
  payload: { ...PeerConnection.command({ commandId, controllerSeq, type: "runner.drain" }), issuedAt },
});

const BAD_ISSUED_AT: [string, unknown, string][] = [
  ["missing", undefined, "missing field `issuedAt`"],
  ["null", null, "invalid type: null, expected a string"],
  ["a number", 5, "invalid type: integer `5`, expected a string"],
];

describe.each(BAD_ISSUED_AT)(
  "a command whose issuedAt is %s",
  { timeout: 60_000 },
  (_name, issuedAt, upstreamWords) => {
    it("upstream's runner exits 1 without answering it, reconnecting or journalling it", async () => {
      const { server, run, conn, stateDir } = await welcomedRunner("upstream", {
        connectionLeaseToken: `lease_${randomUUID()}`,
      });
      conn.send(drain("bad", 1, issuedAt));
      expect(await run.closed).toBe(1);
      expect(run.stderr()).toContain(`command is malformed: ${upstreamWords}`);
      await conn.closed;
      expect(conn.resultsOf("bad")).toEqual([]);
      expect(server.takeArrived()).toEqual([]);
      const state = await savedState(stateDir);
      expect(state.processedCommands).toEqual({});
      expect(state.lastControllerCommandSeq).toBe(0);
      // Its state says nothing of it: still `ready`, no failure recorded.
      expect(state).toMatchObject({ lifecycle: "ready", recoverableFailure: null, diagnostics: [] });
    });

    it("ours answers it rejected, journals it and goes on", async () => {
      const { conn, stateDir } = await welcomedRunner("ours", {
        connectionLeaseToken: `lease_${randomUUID()}`,
      });
      conn.send(drain("bad", 1, issuedAt));
      expect(await conn.resultOf("bad")).toEqual({
        commandId: "bad",
        commandType: "runner.drain",
        controllerSeq: 1,
        status: "rejected",
        message: "invalid command: issuedAt must be a string",
        result: null,
      });
      await expectStaysOpen(conn);
      // Its seq is taken: the next command is the next seq, and is applied.
      conn.send(drain("next", 2, "2026-01-01T00:00:00.000Z"));
      expect(await conn.resultOf("next")).toMatchObject({ status: "completed" });
      const state = await savedState(stateDir);
      expect(Object.keys(state.processedCommands as object)).toEqual(["bad", "next"]);
      expect(state.lastControllerCommandSeq).toBe(2);
    });
  },
);

describe("a command whose issuedAt is a string", { timeout: 60_000 }, () => {
  // The same frame but for its issuedAt: upstream's runner answers it (it has no provider yet).
  it("upstream's runner answers it and keeps the connection", async () => {
    const { conn } = await welcomedRunner("upstream", { connectionLeaseToken: `lease_${randomUUID()}` });
    conn.send(drain("good", 1, "2026-01-01T00:00:00.000Z"));
    expect(await conn.resultOf("good")).toMatchObject({ status: "failed" });
    await expectStaysOpen(conn);
  });
});
