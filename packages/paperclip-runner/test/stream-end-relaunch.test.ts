import { isAlive } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { withWork } from "./helpers/codex-durable.js";
import { codexOnHandMadeServer } from "./helpers/codex-on-hand-made-server.js";
import { PeerConnection } from "./helpers/hand-made-prp-server.js";
import { durableState } from "./helpers/hand-made-runner.js";
import { journalledEnd, killedAtJournalWrite } from "./helpers/killed-at-journal-write.js";
import {
  ackEnd,
  providerStarts,
  RELAUNCH_TICKET,
  STREAM_ENDS,
  sentResults,
} from "./helpers/stream-end-relaunch.js";

// A runner that applied the end of the command stream (`runner.shutdown`, `runner.suspend`) and
// journalled its result, SIGKILLed before that result was acknowledged (here: before it was even
// sent, the state file just renamed into place). The server relaunches it with a fresh ticket over
// the same state directory: the relaunch honours the recorded end. The built bin against the
// hand-made server, on loopback, with the fake Codex app-server.

/**
 * A runner on the fake app-server, its session open, sent `type` (seq 3) and SIGKILLed once the
 * end's result is journalled, before it is sent: the state as the relaunch finds it.
 */
async function killedAfterJournallingEnd(work: string, type: string, lifecycle: string) {
  const {
    on,
    conn,
    pid,
    command: end,
  } = await killedAtJournalWrite(work, { commandId: "end", type }, journalledEnd(lifecycle));
  const { codexHome, server, stateDir, launch } = on;
  // Journalled, never sent: the server has no result for it.
  expect(conn.resultsOf("end")).toEqual([]);
  expect(isAlive(pid)).toBe(false);
  const journalled = await durableState(stateDir);
  const recorded = journalled.processedCommands.end;
  expect(recorded).toMatchObject({ status: "done", result: { status: "completed" } });
  // Its delivery fenced in the same write: the relaunch honours it.
  expect(journalled.pendingTerminalDelivery).toMatchObject({
    commandId: "end",
    controllerSeq: 3,
    commandType: type,
  });
  const relaunched = launch({ ticket: RELAUNCH_TICKET });
  const next = await server.nextConnection();
  await next.handshake(RELAUNCH_TICKET);
  return { stateDir, codexHome, pid, end, recorded, relaunched, next };
}

describe("a relaunch after the end of the command stream was journalled, its result not acknowledged", {
  timeout: 60_000,
}, () => {
  it.each(STREAM_ENDS.flatMap((end) => [true, false].map((redelivered) => ({ ...end, redelivered }))))(
    "$type (redelivered in the welcome: $redelivered): the recorded result sent once, byte for byte, $lifecycle, no provider",
    async ({ type, lifecycle, redelivered }) => {
      await withWork(async (work) => {
        const { stateDir, codexHome, pid, end, recorded, relaunched, next } = await killedAfterJournallingEnd(
          work,
          type,
          lifecycle,
        );
        // The server redelivers the end if it has no result; if it has (the ack lost), nothing.
        next.welcome({ pendingCommands: redelivered ? [PeerConnection.command(end)] : [] });
        // A command behind the end: answered by durable mode, and it must start no provider.
        next.sendCommand({ commandId: "drain", controllerSeq: 4, type: "runner.drain" });
        expect(await next.resultOf("drain")).toMatchObject({ status: "completed" });
        expect(sentResults(next, "end")).toEqual([JSON.stringify(recorded?.result)]);
        expect((await durableState(stateDir)).lifecycle).toBe(lifecycle);
        ackEnd(next, end);
        expect(await relaunched.closed).toBe(0);
        expect(sentResults(next, "end")).toEqual([JSON.stringify(recorded?.result)]);
        expect((await durableState(stateDir)).lifecycle).toBe(lifecycle);
        // Only the first runner's provider ever started, and it is gone.
        expect(await providerStarts(codexHome)).toEqual([pid]);
      });
    },
  );

  it("a welcome with a command after a recorded suspension: the server moved past it, the run goes on", async () => {
    await withWork(async (work) => {
      const { stateDir, codexHome, pid, relaunched, next } = await killedAfterJournallingEnd(
        work,
        "runner.suspend",
        "suspended",
      );
      // The server sends a command only once it holds the result of the one before.
      next.welcome({
        pendingCommands: [
          PeerConnection.command({ commandId: "probe", controllerSeq: 4, type: "runner.drain" }),
        ],
      });
      expect(await next.resultOf("probe")).toMatchObject({ status: "completed" });
      expect(sentResults(next, "end")).toEqual([]);
      // The server holds the end's result: its delivery is no longer pending.
      expect(await durableState(stateDir)).toMatchObject({
        lifecycle: "ready",
        pendingTerminalDelivery: null,
      });
      // The suspended session resumed on a provider of its own.
      const starts = await providerStarts(codexHome);
      expect(starts).toHaveLength(2);
      expect(starts[0]).toBe(pid);
      const stop = { commandId: "stop", controllerSeq: 5, type: "runner.shutdown" };
      next.sendCommand(stop);
      expect(await next.resultOf("stop")).toMatchObject({ status: "completed" });
      ackEnd(next, stop);
      expect(await relaunched.closed).toBe(0);
      expect(sentResults(next, "end")).toEqual([]);
      expect(starts.map(isAlive)).toEqual([false, false]);
      expect((await durableState(stateDir)).lifecycle).toBe("stopped");
    });
  });
});

describe("a relaunch after a suspension the server acknowledged (the runner exited 0)", {
  timeout: 60_000,
}, () => {
  it("commands sent after the welcome are answered, the run goes on, the old result is not sent again", async () => {
    await withWork(async (work) => {
      const { codexHome, server, stateDir, launch, openSession } = await codexOnHandMadeServer(work);
      const first = launch();
      const { conn } = await openSession();
      const suspend = { commandId: "suspend", controllerSeq: 3, type: "runner.suspend" };
      conn.sendCommand(suspend);
      expect(await conn.resultOf("suspend")).toMatchObject({ status: "completed" });
      ackEnd(conn, suspend);
      expect(await first.closed).toBe(0);
      // The acknowledgement is durable: nothing is left to deliver.
      expect(await durableState(stateDir)).toMatchObject({
        lifecycle: "suspended",
        pendingTerminalDelivery: null,
      });
      // Resumed (as the maintenance epoch or a reopened transport does): the commands come after the welcome.
      const relaunched = launch({ ticket: RELAUNCH_TICKET });
      const next = await server.nextConnection();
      await next.handshake(RELAUNCH_TICKET);
      next.welcome({ pendingCommands: [] });
      next.sendCommand({ commandId: "drain", controllerSeq: 4, type: "runner.drain" });
      expect(await next.resultOf("drain")).toMatchObject({ status: "completed" });
      next.sendCommand({ commandId: "snapshot", controllerSeq: 5, type: "session.snapshot" });
      expect(await next.resultOf("snapshot")).toMatchObject({ status: "completed" });
      expect(sentResults(next, "suspend")).toEqual([]);
      expect((await durableState(stateDir)).lifecycle).toBe("ready");
      const stop = { commandId: "stop", controllerSeq: 6, type: "runner.shutdown" };
      next.sendCommand(stop);
      expect(await next.resultOf("stop")).toMatchObject({ status: "completed" });
      ackEnd(next, stop);
      expect(await relaunched.closed).toBe(0);
      expect(sentResults(next, "suspend")).toEqual([]);
      expect(await durableState(stateDir)).toMatchObject({
        lifecycle: "stopped",
        pendingTerminalDelivery: null,
      });
      expect((await providerStarts(codexHome)).map(isAlive)).toEqual([false, false]);
    });
  });
});
