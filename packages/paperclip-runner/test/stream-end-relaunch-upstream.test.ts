import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { isAlive } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { withWork } from "./helpers/codex-durable.js";
import { codexOnHandMadeServer } from "./helpers/codex-on-hand-made-server.js";
import { PeerConnection } from "./helpers/hand-made-prp-server.js";
import { HAND_MADE_TICKET } from "./helpers/hand-made-runner.js";
import type { Runner } from "./helpers/hand-made-side-by-side.js";
import {
  ackEnd,
  providerStarts,
  RELAUNCH_TICKET,
  STREAM_ENDS,
  sentResults,
  stateLifecycle,
} from "./helpers/stream-end-relaunch.js";
import { upstreamRunner } from "./helpers/upstream-runner.js";

// Side by side: our runner and upstream's Rust runner (2026.916.1) against the same hand-made
// server, on the fake app-server. Each sends `runner.shutdown` or `runner.suspend`'s result and is
// SIGKILLed before the server acknowledges it (upstream's runner cannot be stopped at a persist
// phase: `stream-end-relaunch.test.ts` does that to ours), then relaunched with a fresh ticket over
// the same state directory. Both keep the lifecycle the end left and start no provider. Redelivered
// in the welcome, both send the journalled result again, byte for byte, and leave on its ack. Not
// redelivered (the server holds the result), upstream's sends nothing and exits 0 at once; ours
// sends it again and leaves on its ack (docs/compatibility.md). Relaunches after a suspend that fail
// before their welcome keep its lifecycle and fence alike; a welcome bringing `runner.shutdown`
// after it starts no provider in either (upstream's exits at once, ours stops the run).

const CASES = (["upstream", "ours"] as const).flatMap((which: Runner) =>
  STREAM_ENDS.flatMap((end) => [true, false].map((redelivered) => ({ which, ...end, redelivered }))),
);

describe("the end's result unacknowledged, the runner killed and relaunched", { timeout: 60_000 }, () => {
  it.each(CASES)(
    "$which runner, $type (redelivered: $redelivered): $lifecycle kept, no provider",
    async ({ which, type, lifecycle, redelivered }) => {
      await withWork(async (work) => {
        const on = await codexOnHandMadeServer(work);
        const { codexHome, server, stateDir } = on;
        const launch = launcherOf(on, which);
        const first = launch(HAND_MADE_TICKET);
        const { conn, pid } = await on.openSession();
        const end = { commandId: "end", controllerSeq: 3, type };
        conn.sendCommand(end);
        await conn.resultOf("end");
        const [result] = sentResults(conn, "end");
        first.child.kill("SIGKILL");
        await first.closed;
        expect(await stateLifecycle(stateDir)).toBe(lifecycle);

        const relaunched = launch(RELAUNCH_TICKET);
        const next = await server.nextConnection();
        await next.handshake(RELAUNCH_TICKET);
        next.welcome({ pendingCommands: redelivered ? [PeerConnection.command(end)] : [] });
        if (which === "upstream" && !redelivered) {
          expect(await relaunched.closed).toBe(0);
          expect(sentResults(next, "end")).toEqual([]);
        } else {
          await next.resultOf("end");
          expect(sentResults(next, "end")).toEqual([result]);
          ackEnd(next, end);
          expect(await relaunched.closed).toBe(0);
          expect(sentResults(next, "end")).toEqual([result]);
        }
        expect(await stateLifecycle(stateDir)).toBe(lifecycle);
        expect(await providerStarts(codexHome)).toEqual([pid]);
        expect(isAlive(pid)).toBe(false);
      });
    },
  );
});

/** `runner-state.json`'s lifecycle, fence and failure, as the server reads them. */
/** Launches `which` runner on `on`'s hand-made server with a ticket (a grace long enough for a relaunch). */
function launcherOf(on: Awaited<ReturnType<typeof codexOnHandMadeServer>>, which: Runner) {
  return (ticket: string) =>
    on.launch({
      ticket,
      reconnectGraceMs: 10_000,
      ...(which === "upstream" ? { command: [upstreamRunner()] as const } : {}),
    });
}

async function fenceState(stateDir: string) {
  const state = JSON.parse(await readFile(join(stateDir, "runner-state.json"), "utf8")) as Record<
    string,
    unknown
  >;
  return {
    lifecycle: state.lifecycle,
    pendingTerminalDelivery: state.pendingTerminalDelivery,
    recoverableFailure: state.recoverableFailure,
  };
}

/** `which` runner on the fake app-server, its `runner.suspend` (seq 3) answered, SIGKILLed before the ack. */
async function killedAfterSuspend(work: string, which: Runner) {
  const on = await codexOnHandMadeServer(work);
  const launch = launcherOf(on, which);
  const first = launch(HAND_MADE_TICKET);
  const { conn, pid } = await on.openSession();
  conn.sendCommand({ commandId: "end", controllerSeq: 3, type: "runner.suspend" });
  await conn.resultOf("end");
  first.child.kill("SIGKILL");
  await first.closed;
  const fenced = await fenceState(on.stateDir);
  expect(fenced).toEqual({
    lifecycle: "suspended",
    pendingTerminalDelivery: {
      commandId: "end",
      controllerSeq: 3,
      commandType: "runner.suspend",
      lifecycle: "suspended",
    },
    recoverableFailure: null,
  });
  /** A relaunch with a fresh ticket, taken through its handshake. */
  const relaunch = async () => {
    const run = launch(RELAUNCH_TICKET);
    const conn = await on.server.nextConnection();
    await conn.handshake(RELAUNCH_TICKET);
    return { run, conn };
  };
  return { ...on, pid, fenced, relaunch };
}

describe("after a suspend's result, unacknowledged, the runner killed", { timeout: 60_000 }, () => {
  it.each(["upstream", "ours"] as const)(
    "%s runner: relaunches killed or refused before their welcome leave the suspend and its fence",
    async (which) => {
      await withWork(async (work) => {
        const { stateDir, codexHome, pid, fenced, relaunch } = await killedAfterSuspend(work, which);
        const killed = await relaunch();
        killed.run.child.kill("SIGKILL");
        await killed.run.closed;
        expect(await fenceState(stateDir)).toEqual(fenced);
        const refused = await relaunch();
        refused.conn.sendRaw("not a sealed frame");
        expect(await refused.run.closed).toBe(1);
        expect(await fenceState(stateDir)).toEqual(fenced);
        expect(await providerStarts(codexHome)).toEqual([pid]);
      });
    },
  );

  it.each(["upstream", "ours"] as const)(
    "%s runner: a welcome bringing runner.shutdown starts no provider and clears the fence",
    async (which) => {
      await withWork(async (work) => {
        const { stateDir, codexHome, pid, relaunch } = await killedAfterSuspend(work, which);
        const { run, conn } = await relaunch();
        const stop = { commandId: "stop", controllerSeq: 4, type: "runner.shutdown" };
        conn.welcome({ pendingCommands: [PeerConnection.command(stop)] });
        if (which === "upstream") {
          // Upstream's exits at once, the shutdown unanswered, the run left suspended.
          expect(await run.closed).toBe(0);
          expect(conn.resultsOf("stop")).toEqual([]);
        } else {
          expect(await conn.resultOf("stop")).toMatchObject({ status: "completed" });
          ackEnd(conn, stop);
          expect(await run.closed).toBe(0);
        }
        expect(await fenceState(stateDir)).toEqual({
          lifecycle: which === "upstream" ? "suspended" : "stopped",
          pendingTerminalDelivery: null,
          recoverableFailure: null,
        });
        expect(sentResults(conn, "end")).toEqual([]);
        expect(await providerStarts(codexHome)).toEqual([pid]);
      });
    },
  );
});
