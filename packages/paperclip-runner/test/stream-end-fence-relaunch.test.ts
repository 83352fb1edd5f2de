import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { isAlive } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { withWork } from "./helpers/codex-durable.js";
import { PeerConnection } from "./helpers/hand-made-prp-server.js";
import { durableState } from "./helpers/hand-made-runner.js";
import {
  journalledDone,
  journalledEnd,
  journalledPending,
  killedAtJournalWrite,
} from "./helpers/killed-at-journal-write.js";
import {
  ackEnd,
  providerRequestParams,
  providerStarts,
  relaunchedThroughHandshake,
  sentResults,
} from "./helpers/stream-end-relaunch.js";

// The fence (`pendingTerminalDelivery`) across relaunches it was not written for: an end replayed
// as `indeterminate`, a command journalled behind the end, a relaunch that fails before its
// welcome, and a welcome that ends the run again. The built bin against the hand-made server, on
// loopback, with the fake Codex app-server; every runner ended by SIGKILL or by the server.

const SHUTDOWN = { commandId: "end", type: "runner.shutdown" } as const;
const SUSPEND = { commandId: "end", type: "runner.suspend" } as const;

describe("the terminal delivery fence across relaunches", { timeout: 60_000 }, () => {
  it("an end replayed as indeterminate, its result unacknowledged: the next relaunch honours it", async () => {
    await withWork(async (work) => {
      // Killed with the shutdown pending: its relaunch replays it as indeterminate.
      const { on, pid, command: end } = await killedAtJournalWrite(work, SHUTDOWN, journalledPending("end"));
      const { run: replaying, conn } = await relaunchedThroughHandshake(on);
      conn.welcome({ pendingCommands: [PeerConnection.command(end)] });
      expect(await conn.resultOf("end")).toMatchObject({ status: "indeterminate" });
      const [replayed] = sentResults(conn, "end");
      // Killed once that result is sent, before its ack: the fence names the indeterminate end.
      replaying.child.kill("SIGKILL");
      await replaying.closed;
      expect(await durableState(on.stateDir)).toMatchObject({
        lifecycle: "stopped",
        pendingTerminalDelivery: { commandId: "end", controllerSeq: 3, lifecycle: "stopped" },
      });
      const startsBefore = await providerStarts(on.codexHome);
      expect(startsBefore[0]).toBe(pid);

      const { run: relaunched, conn: next } = await relaunchedThroughHandshake(on);
      // The server holds the result (the ack was lost): nothing redelivered.
      next.welcome({ pendingCommands: [] });
      // A command behind the end: answered once the end is (commands are handled in order).
      next.sendCommand({ commandId: "drain", controllerSeq: 4, type: "runner.drain" });
      expect(await next.resultOf("drain")).toMatchObject({ status: "completed" });
      expect(sentResults(next, "end")).toEqual([replayed]);
      expect((await durableState(on.stateDir)).lifecycle).toBe("stopped");
      ackEnd(next, end);
      expect(await relaunched.closed).toBe(0);
      expect(await durableState(on.stateDir)).toMatchObject({
        lifecycle: "stopped",
        pendingTerminalDelivery: null,
      });
      // The last relaunch started no provider.
      expect(await providerStarts(on.codexHome)).toEqual(startsBefore);
    });
  });

  it("a command journalled behind a fenced end: the relaunch goes on and clears the fence", async () => {
    await withWork(async (work) => {
      // The server sent a command after the suspend's result (it holds it), its ack lost.
      const { on } = await killedAtJournalWrite(work, SUSPEND, journalledDone("drain"), async (conn) => {
        await conn.resultOf("end");
        conn.sendCommand({ commandId: "drain", controllerSeq: 4, type: "runner.drain" });
      });
      expect((await durableState(on.stateDir)).pendingTerminalDelivery).toMatchObject({ commandId: "end" });
      const { run: relaunched, conn: next } = await relaunchedThroughHandshake(on);
      next.welcome({ pendingCommands: [] });
      next.sendCommand({ commandId: "probe", controllerSeq: 5, type: "runner.drain" });
      expect(await next.resultOf("probe")).toMatchObject({ status: "completed" });
      expect(await durableState(on.stateDir)).toMatchObject({
        lifecycle: "ready",
        pendingTerminalDelivery: null,
      });
      const stop = { commandId: "stop", controllerSeq: 6, type: "runner.shutdown" };
      next.sendCommand(stop);
      expect(await next.resultOf("stop")).toMatchObject({ status: "completed" });
      ackEnd(next, stop);
      expect(await relaunched.closed).toBe(0);
    });
  });

  it("relaunches that fail before their welcome keep a fenced suspend's lifecycle and fence", async () => {
    await withWork(async (work) => {
      const { on, pid, command: end } = await killedAtJournalWrite(work, SUSPEND, journalledEnd("suspended"));
      const fenced = (await durableState(on.stateDir)).pendingTerminalDelivery;
      expect(fenced).toMatchObject({ commandId: "end", lifecycle: "suspended" });
      // Killed once its recovered state is written back (the handshake waits for it).
      const { run: killed } = await relaunchedThroughHandshake(on);
      killed.child.kill("SIGKILL");
      await killed.closed;
      expect(await durableState(on.stateDir)).toMatchObject({
        lifecycle: "suspended",
        pendingTerminalDelivery: fenced,
      });
      // Refused by the runner at its first frame: the run fails, the state kept for the next one.
      const { run: refused, conn: bad } = await relaunchedThroughHandshake(on);
      bad.sendRaw("not a sealed frame");
      expect(await refused.closed).not.toBe(0);
      expect(await durableState(on.stateDir)).toMatchObject({
        lifecycle: "suspended",
        recoverableFailure: null,
        pendingTerminalDelivery: fenced,
      });
      // The next relaunch still honours the suspend.
      const { run: relaunched, conn: next } = await relaunchedThroughHandshake(on);
      next.welcome({ pendingCommands: [] });
      expect(await next.resultOf("end")).toMatchObject({ status: "completed" });
      ackEnd(next, end);
      expect(await relaunched.closed).toBe(0);
      expect(await durableState(on.stateDir)).toMatchObject({
        lifecycle: "suspended",
        pendingTerminalDelivery: null,
      });
      expect(await providerStarts(on.codexHome)).toEqual([pid]);
    });
  });

  it("a welcome bringing runner.shutdown after a fenced suspend: stopped, the provider not resumed", async () => {
    await withWork(async (work) => {
      const { pid } = await anotherEndInTheWelcome(work, "runner.shutdown", "stopped");
      expect(isAlive(pid)).toBe(false);
    });
  });

  it("a welcome bringing runner.suspend after a fenced suspend: suspended, nothing started, the thread resumed later", async () => {
    await withWork(async (work) => {
      const { on, threadId } = await anotherEndInTheWelcome(work, "runner.suspend", "suspended");
      expect(await providerState(on.stateDir)).toMatchObject({ threadId, activeProviderTurnId: null });

      // A clean relaunch (the suspend acknowledged) resumes the same thread and runs a turn on it.
      const { run: resumed, conn: last } = await relaunchedThroughHandshake(on);
      last.welcome({ pendingCommands: [] });
      last.sendCommand({ commandId: "probe", controllerSeq: 5, type: "runner.drain" });
      expect(await last.resultOf("probe")).toMatchObject({ status: "completed" });
      last.sendCommand({
        commandId: "turn",
        controllerSeq: 6,
        type: "turn.start",
        payload: { text: "plain" },
      });
      expect(await last.resultOf("turn")).toMatchObject({ status: "completed" });
      expect(await providerRequestParams(on.codexHome, "thread/resume")).toEqual([
        expect.objectContaining({ threadId }),
      ]);
      expect(await providerRequestParams(on.codexHome, "turn/start")).toEqual([
        expect.objectContaining({ threadId }),
      ]);
      const stop = { commandId: "stop", controllerSeq: 7, type: "runner.shutdown" };
      last.sendCommand(stop);
      expect(await last.resultOf("stop")).toMatchObject({ status: "completed" });
      ackEnd(last, stop);
      expect(await resumed.closed).toBe(0);
      expect((await providerStarts(on.codexHome)).map(isAlive)).toEqual([false, false]);
    });
  });
});

/** `codex-provider-state.json` as the server reads it. */
async function providerState(stateDir: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(join(stateDir, "codex-provider-state.json"), "utf8")) as Record<
    string,
    unknown
  >;
}

/**
 * A suspend fenced (its runner killed before the ack), then a relaunch whose welcome brings
 * another end (`type`, seq 4): answered and acknowledged, the old result not sent again, the run
 * `lifecycle` with no fence, no provider started. Resolves to the run, the first provider's pid
 * and the thread it had.
 */
async function anotherEndInTheWelcome(work: string, type: string, lifecycle: string) {
  const { on, pid } = await killedAtJournalWrite(work, SUSPEND, journalledEnd("suspended"));
  const { threadId } = await providerState(on.stateDir);
  expect(threadId).toEqual(expect.any(String));
  const { run, conn } = await relaunchedThroughHandshake(on);
  const end = { commandId: "later", controllerSeq: 4, type };
  conn.welcome({ pendingCommands: [PeerConnection.command(end)] });
  expect(await conn.resultOf("later")).toMatchObject({ status: "completed" });
  ackEnd(conn, end);
  expect(await run.closed).toBe(0);
  expect(sentResults(conn, "end")).toEqual([]);
  expect(await durableState(on.stateDir)).toMatchObject({ lifecycle, pendingTerminalDelivery: null });
  expect(await providerStarts(on.codexHome)).toEqual([pid]);
  return { on, pid, threadId };
}
