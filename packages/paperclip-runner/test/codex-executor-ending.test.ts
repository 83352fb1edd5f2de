import { readFile } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import { isAlive } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import type { ExecutorContext } from "../src/provider/executor-context.js";
import { codexPrepare, withWork } from "./helpers/codex-durable.js";
import { commandOf, executorAlone, stopAll } from "./helpers/codex-executor-alone.js";

// The Codex executor alone (no server), on the real fake app-server: the orders of a provider's
// exit and the runner's own steps that a server scenario cannot pin down.

/** An executor with its session open on the fake app-server. */
async function startExecutor(work: string) {
  const alone = await executorAlone(work);
  await alone.run("run.prepare", codexPrepare(work, { contract: false }));
  await alone.run("session.open");
  return alone;
}

/** Far past the few milliseconds in which the old code had the provider started and the open answered. */
const UNANSWERED_MS = 500;

describe("a provider exit while the runner is ending or busy", { timeout: 30_000 }, () => {
  it("a failing runner (kill) starts no second provider and leaves the state file as it was", async () => {
    await withWork(async (work) => {
      const { executor, events, readState, stateFile, pids } = await startExecutor(work);
      try {
        const before = await readFile(stateFile, "utf8");
        const pid = (await readState()).processId as number;
        const eventsBefore = events.length;
        await executor.kill();
        // The exit reaches the executor after kill (its actor handles it behind this step).
        executor.shutdown();
        await executor.finished;
        expect(isAlive(pid)).toBe(false);
        expect(await pids()).toEqual([pid]);
        expect(await readFile(stateFile, "utf8")).toBe(before);
        expect(events.slice(eventsBefore).map((event) => event.eventType)).toEqual([]);
      } finally {
        await stopAll(pids);
      }
    });
  });

  it("a session.open queued when the runner is killed starts no provider after kill returned", async () => {
    await withWork(async (work) => {
      const alone = await executorAlone(work);
      const { executor, pids } = alone;
      try {
        await alone.run("run.prepare", codexPrepare(work, { contract: false }));
        // The actor is busy (a provider message, a step before) when the runner fails: the
        // session.open durable mode handed over waits behind it, and runs once kill has returned.
        const ctx = (executor as unknown as { ctx: ExecutorContext }).ctx;
        let release!: () => void;
        const busy = ctx.run(() => new Promise<void>((resolve) => (release = resolve)));
        const open = executor.command(commandOf("session.open"));
        await executor.kill();
        release();
        await busy;
        // The old code had started the provider and answered within a few milliseconds.
        const answered = await Promise.race([open.then(() => true), delay(UNANSWERED_MS).then(() => false)]);
        // No session was started at all (the old code had one as soon as the step ran), and no process.
        expect(ctx.session).toBeNull();
        expect(await pids()).toEqual([]);
        // Left unanswered, as after a crash: an answer would be journalled as the command's result.
        expect(answered).toBe(false);
      } finally {
        // The killed executor's actor holds the unanswered step: no shutdown can follow it.
        await stopAll(pids);
      }
    });
  });

  it("a turn.start that finds the provider dead before its exit was handled starts it again and runs the turn", async () => {
    await withWork(async (work) => {
      const { executor, events, run, readState, pids } = await startExecutor(work);
      try {
        const pid = (await readState()).processId as number;
        // The actor is held until the provider is reaped, so its exit message waits behind the
        // turn.start queued meanwhile: the race of a death between two turns, pinned down.
        const ctx = (executor as unknown as { ctx: ExecutorContext }).ctx;
        const process_ = ctx.session?.peer.process;
        const dead = ctx.run(async () => {
          process.kill(pid, "SIGKILL");
          await process_?.exited;
        });
        // Its beforeCommand ran before the death (nothing to restart then): the command alone is queued.
        const held = executor.command(commandOf("turn.start", { text: "plain" }));
        await dead;
        const receipt = await held;
        expect(receipt).toMatchObject({ status: "accepted", detail: "command applied" });
        expect((await pids()).length).toBe(2);
        const types = events.map((event) => event.eventType);
        expect(types).toContain("session.resumed");
        expect(types).toContain("turn.accepted");
        expect(types.indexOf("session.resumed")).toBeLessThan(types.indexOf("turn.accepted"));
        expect(types).not.toContain("turn.failed");
        await run("session.close");
      } finally {
        executor.shutdown();
        await executor.finished;
        await stopAll(pids);
      }
    });
  });

  it("a provider that dies after runner.drain is not started again, and no event follows the drain", async () => {
    await withWork(async (work) => {
      const { executor, events, readState, pids } = await startExecutor(work);
      try {
        const pid = (await readState()).processId as number;
        // Durable mode answers a drain itself between beforeCommand and afterCommand. The open's
        // startup facts stay held through the first drain; the second's answer makes their commit
        // due, which the third (the server's close drains again while they are retained) makes
        // before its answer: from then on, nothing is held.
        for (const drain of [
          commandOf("runner.drain"),
          commandOf("runner.drain"),
          commandOf("runner.drain"),
        ]) {
          await executor.beforeCommand(drain);
          await executor.afterCommand(drain);
        }
        expect(executor.holdsEvents()).toBe(false);
        const drained = events.length;
        const ctx = (executor as unknown as { ctx: ExecutorContext }).ctx;
        const provider = ctx.session?.peer.process;
        process.kill(pid, "SIGKILL");
        await provider?.exited;
        await provider?.outputEnded;
        // The exit message is handled in the actor, before the suspend queued after it.
        await ctx.run(async () => undefined);
        await executor.beforeCommand(commandOf("runner.suspend"));
        executor.shutdown();
        await executor.finished;
        expect(await pids()).toEqual([pid]);
        expect(events.slice(drained).map((event) => event.eventType)).toEqual([]);
      } finally {
        await stopAll(pids);
      }
    });
  });
});
