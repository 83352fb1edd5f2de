import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isAlive, killGroupAfterTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { recoverDurableState } from "../src/durable/state/command-journal.js";
import type { DurableState } from "../src/durable/state/durable-state.js";
import { withTerminalDeliveryPending } from "../src/durable/state/terminal-delivery.js";
import { codexPrepare, fakeCodexArgs, withWork } from "./helpers/codex-durable.js";
import { codexOnHandMadeServer } from "./helpers/codex-on-hand-made-server.js";
import { PeerConnection } from "./helpers/hand-made-prp-server.js";
import { durableState } from "./helpers/hand-made-runner.js";
import { watchdogsOf } from "./helpers/harness-watchdogs.js";
import { journalledPending } from "./helpers/killed-at-journal-write.js";
import { pausedAt, pausedAtWrite } from "./helpers/persist-pause.js";
import {
  ackEnd,
  providerStarts,
  RELAUNCH_TICKET,
  relaunchedThroughHandshake,
} from "./helpers/stream-end-relaunch.js";
import { goneWithin } from "./local-controller.js";

// A run ended by relaunches that never resume its provider session (an end replayed as
// indeterminate, or honoured from its fence with nothing bound) still gets what a restart owes the
// dead runner: its provider's group stopped and the terminal events of a turn it settled, lost
// with it, committed. The built bin against the hand-made server, on loopback, with a fake
// app-server that outlives its runner; every runner ended by SIGKILL or by the server.

const END = { commandId: "end", controllerSeq: 4, type: "runner.shutdown" } as const;

/**
 * R0 killed with its watchdog (an OOM kill of both, say) once its turn's end is saved, none of its
 * terminal events committed, its provider left running; R1 killed once the shutdown the server
 * then sent is journalled pending, before it reached the provider.
 */
async function deadRunnerWithEndPending(work: string) {
  const on = await codexOnHandMadeServer(work);
  const first = on.launch({ env: pausedAtWrite("codex-provider-state.json", '"settlingTurn":\\{') });
  const { conn, pid } = await on.openSession(
    {},
    codexPrepare(work, { args: fakeCodexArgs("outlive-runner") }),
  );
  killGroupAfterTest(pid);
  const paused = pausedAt(first.child, "renamed");
  conn.sendCommand({ commandId: "turn", controllerSeq: 3, type: "turn.start", payload: { text: "plain" } });
  await paused;
  for (const watchdog of watchdogsOf(first.child.pid as number)) process.kill(watchdog, "SIGKILL");
  first.child.kill("SIGKILL");
  await first.closed;

  const pending = on.launch({
    ticket: RELAUNCH_TICKET,
    env: pausedAtWrite("runner-state.json", journalledPending("end")),
  });
  const second = await on.server.nextConnection();
  await second.handshake(RELAUNCH_TICKET);
  const stalled = pausedAt(pending.child, "renamed");
  second.welcome({ pendingCommands: [PeerConnection.command(END)] });
  await stalled;
  pending.child.kill("SIGKILL");
  await pending.closed;
  // Only a relaunch can stop it now.
  expect(isAlive(pid)).toBe(true);
  return { on, pid };
}

/** The last relaunch's end, its result, the settled turn's lost terminal event and the provider's state. */
async function expectDeadRunnerReaped(
  on: Awaited<ReturnType<typeof codexOnHandMadeServer>>,
  pid: number,
  pendingCommands: readonly Record<string, unknown>[],
) {
  const { run: relaunched, conn } = await relaunchedThroughHandshake(on);
  conn.welcome({ pendingCommands });
  expect(await conn.resultOf("end")).toMatchObject({ status: "indeterminate" });
  // Committed, once, before the end's result was sent.
  const terminals = conn.events().filter((event) => event.eventType === "turn.completed");
  expect(terminals).toHaveLength(1);
  await goneWithin(pid);
  ackEnd(conn, END);
  expect(await relaunched.closed).toBe(0);
  expect(await durableState(on.stateDir)).toMatchObject({
    lifecycle: "stopped",
    pendingTerminalDelivery: null,
  });
  const provider = JSON.parse(await readFile(join(on.stateDir, "codex-provider-state.json"), "utf8"));
  expect(provider.settlingTurn).toBeNull();
  // No provider started after R0's.
  expect(await providerStarts(on.codexHome)).toEqual([pid]);
}

describe("an end honoured without resuming the provider", { timeout: 60_000 }, () => {
  it("replayed as indeterminate: the dead runner's provider stopped, its settled turn's events committed", async () => {
    await withWork(async (work) => {
      const { on, pid } = await deadRunnerWithEndPending(work);
      await expectDeadRunnerReaped(on, pid, [PeerConnection.command(END)]);
    });
  });

  it("honoured from its fence with nothing bound (a relaunch of 2026-12-06 replayed it and left the rest)", async () => {
    await withWork(async (work) => {
      const { on, pid } = await deadRunnerWithEndPending(work);
      // As that relaunch left the state, killed before the replayed result's ack: the shutdown
      // indeterminate, fenced, `stopped`; the provider neither stopped nor its turn's events committed.
      const path = join(on.stateDir, "runner-state.json");
      const killed = JSON.parse(await readFile(path, "utf8")) as DurableState;
      const replayed = withTerminalDeliveryPending(recoverDurableState(killed).state, END);
      await writeFile(path, `${JSON.stringify({ ...replayed, lifecycle: "stopped" })}\n`);
      // The server holds the result: nothing redelivered.
      await expectDeadRunnerReaped(on, pid, []);
    });
  });
});
