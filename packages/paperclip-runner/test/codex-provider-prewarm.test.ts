import { isAlive } from "@paperclipai/test-support";
import { describe, expect, it, vi } from "vitest";
import { codexPrepare, fakeCodexArgs, withWork } from "./helpers/codex-durable.js";
import { type ExecutorAlone, executorAlone, stopAll } from "./helpers/codex-executor-alone.js";

// run.prepare starts Codex ahead of session.open (its start overlaps the journal's writes),
// but only session.open, once journalled, asks it for a thread.

/** The methods the fake app-servers received so far, in order. */
const received = async (alone: ExecutorAlone): Promise<string[]> =>
  (await alone.providerLog())
    .filter((record) => record.kind === "received")
    .map((record) => String(record.message?.method ?? "answer"));

/** Waits until the one provider started ahead has taken initialize and initialized; returns its pid. */
async function startedAhead(alone: ExecutorAlone): Promise<number> {
  await vi.waitFor(async () => expect(await received(alone)).toEqual(["initialize", "initialized"]), {
    timeout: 20_000,
    interval: 20,
  });
  const pids = await alone.pids();
  expect(pids).toHaveLength(1);
  return pids[0] as number;
}

describe("the provider started ahead by run.prepare", { timeout: 60_000 }, () => {
  it("is initialized without a thread, and session.open asks that same process for the thread", async () => {
    await withWork(async (work) => {
      const alone = await executorAlone(work);
      try {
        const prepared = await alone.run("run.prepare", codexPrepare(work));
        expect(prepared).toMatchObject({ status: "accepted" });
        const pid = await startedAhead(alone);
        expect(isAlive(pid)).toBe(true);
        expect((await alone.readState()).processId).toBeNull();
        expect(alone.events).toEqual([]);
        const opened = await alone.run("session.open");
        expect(opened).toMatchObject({ status: "accepted", result: { status: "started", processId: pid } });
        expect(await alone.pids()).toEqual([pid]);
        expect((await received(alone)).slice(0, 3)).toEqual(["initialize", "initialized", "thread/start"]);
        expect(alone.events[0]).toMatchObject({ eventType: "session.started", payload: { processId: pid } });
        await alone.run("session.close");
        expect(isAlive(pid)).toBe(false);
      } finally {
        alone.executor.shutdown();
        await alone.executor.finished;
        await stopAll(alone.pids);
      }
    });
  });

  it("is stopped, never asked for a thread, when the run is prepared again, closed, or ends first", async () => {
    await withWork(async (work) => {
      const alone = await executorAlone(work);
      try {
        await alone.run("run.prepare", codexPrepare(work));
        const first = await startedAhead(alone);
        await alone.run("run.prepare", codexPrepare(work));
        // The first is stopped before the second starts.
        expect(isAlive(first)).toBe(false);
        await vi.waitFor(async () => expect(await alone.pids()).toHaveLength(2), { timeout: 20_000 });
        const second = (await alone.pids())[1] as number;
        await alone.run("session.close");
        expect(isAlive(second)).toBe(false);
        await alone.run("run.prepare", codexPrepare(work));
        await vi.waitFor(async () => expect(await alone.pids()).toHaveLength(3), { timeout: 20_000 });
        const third = (await alone.pids())[2] as number;
        alone.executor.shutdown();
        await alone.executor.finished;
        expect(isAlive(third)).toBe(false);
        expect(await received(alone)).not.toContain("thread/start");
        expect(alone.events.map((event) => event.eventType)).toEqual(["session.closed"]);
      } finally {
        alone.executor.shutdown();
        await stopAll(alone.pids);
      }
    });
  });

  it("is killed at once with a failing runner, and the state is left as run.prepare saved it", async () => {
    await withWork(async (work) => {
      const alone = await executorAlone(work);
      try {
        await alone.run("run.prepare", codexPrepare(work));
        const pid = await startedAhead(alone);
        const saved = await alone.readState();
        await alone.executor.kill();
        expect(isAlive(pid)).toBe(false);
        expect(await alone.readState()).toEqual(saved);
        expect(await received(alone)).not.toContain("thread/start");
      } finally {
        alone.executor.shutdown();
        await alone.executor.finished;
        await stopAll(alone.pids);
      }
    });
  });

  it("that died before session.open fails it as a provider starting then would have, without a second start", async () => {
    await withWork(async (work) => {
      const alone = await executorAlone(work);
      try {
        await alone.run("run.prepare", codexPrepare(work, { args: fakeCodexArgs("exit-before-initialize") }));
        await vi.waitFor(async () => expect(await alone.pids()).toHaveLength(1), { timeout: 20_000 });
        const [pid] = await alone.pids();
        await vi.waitFor(() => expect(isAlive(pid as number)).toBe(false), { timeout: 20_000 });
        const opened = await alone.run("session.open");
        expect(opened).toMatchObject({ status: "failed" });
        expect(String(opened.detail)).toContain("code 3");
        expect(await alone.pids()).toEqual([pid]);
        expect(alone.events.map((event) => event.eventType)).toEqual([
          "harness.diagnostic",
          "session.failed",
        ]);
        expect(alone.events[0]?.payload).toMatchObject({ code: "provider_start_failed" });
      } finally {
        alone.executor.shutdown();
        await alone.executor.finished;
        await stopAll(alone.pids);
      }
    });
  });
});
