import { isAlive } from "@paperclipai/test-support";
import { describe, expect, it, vi } from "vitest";
import type { ExecutorContext } from "../src/provider/executor-context.js";
import { codexPrepare, fakeCodexArgs } from "./helpers/codex-durable.js";
import { commandOf, type ExecutorAlone, withExecutorAlone } from "./helpers/codex-executor-alone.js";

const contextOf = (alone: ExecutorAlone): ExecutorContext =>
  (alone.executor as unknown as { ctx: ExecutorContext }).ctx;

/** Durable mode telling the executor a session.open arrived (it is applied later with `run`). */
const openArrives = (alone: ExecutorAlone): void => alone.executor.commandArrived(commandOf("session.open"));

// A session.open on its way starts Codex ahead (its start overlaps the journal's writes): as
// soon as it has arrived and run.prepare has bound the session, whichever comes last. Only
// session.open, once journalled, asks it for a thread; run.prepare alone starts nothing.

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

describe("the provider started ahead of session.open", { timeout: 60_000 }, () => {
  it("is not started by run.prepare alone", async () => {
    await withExecutorAlone(async (alone, work) => {
      expect(await alone.run("run.prepare", codexPrepare(work))).toMatchObject({ status: "accepted" });
      // The spawn would be synchronous, within run.prepare: nothing was started.
      expect(contextOf(alone).prewarmed).toBeNull();
      expect(contextOf(alone).session).toBeNull();
      alone.executor.shutdown();
      await alone.executor.finished;
      expect(await alone.pids()).toEqual([]);
    });
  });

  for (const order of ["after", "before"] as const) {
    it(`is started when session.open arrives ${order} run.prepare binds, initialized without a thread, and session.open takes that process`, async () => {
      await withExecutorAlone(async (alone, work) => {
        if (order === "before") openArrives(alone);
        const prepared = await alone.run("run.prepare", codexPrepare(work));
        expect(prepared).toMatchObject({ status: "accepted" });
        if (order === "after") {
          expect(contextOf(alone).prewarmed).toBeNull();
          openArrives(alone);
        }
        const pid = await startedAhead(alone);
        expect(isAlive(pid)).toBe(true);
        expect((await alone.readState()).processId).toBeNull();
        expect(alone.events).toEqual([]);
        const opened = await alone.run("session.open");
        expect(opened).toMatchObject({ status: "accepted", result: { status: "started", processId: pid } });
        expect(await alone.pids()).toEqual([pid]);
        expect((await received(alone)).slice(0, 3)).toEqual(["initialize", "initialized", "thread/start"]);
        expect(alone.events[0]).toMatchObject({
          eventType: "session.started",
          payload: { processId: pid },
        });
        await alone.run("session.close");
        expect(isAlive(pid)).toBe(false);
      });
    });
  }

  it("is stopped when the session.open that started it is refused, or a later run.prepare fails", async () => {
    await withExecutorAlone(async (alone, work) => {
      await alone.run("run.prepare", codexPrepare(work));
      openArrives(alone);
      const first = await startedAhead(alone);
      // A session that needs reconciliation refuses session.open (upstream's list).
      contextOf(alone).update((state) => ({ ...state, lifecycle: "reconciliation_required" }));
      expect(await alone.run("session.open")).toMatchObject({ status: "rejected" });
      expect(isAlive(first)).toBe(false);
      expect(contextOf(alone).prewarmed).toBeNull();
      contextOf(alone).update((state) => ({ ...state, lifecycle: "prepared" }));
      openArrives(alone);
      await vi.waitFor(async () => expect(await alone.pids()).toHaveLength(2), { timeout: 20_000 });
      const second = (await alone.pids())[1] as number;
      const refused = await alone.run("run.prepare", { provider: { kind: "codex" } });
      expect(refused.status).not.toBe("accepted");
      expect(isAlive(second)).toBe(false);
      expect(await received(alone)).not.toContain("thread/start");
    });
  });

  it("is stopped, never asked for a thread, when the run is prepared again, closed, or ends first", async () => {
    await withExecutorAlone(async (alone, work) => {
      await alone.run("run.prepare", codexPrepare(work));
      openArrives(alone);
      const first = await startedAhead(alone);
      // Not applied: the server may still send run.prepare again (the session.open is then still to come).
      await alone.run("run.prepare", codexPrepare(work));
      // The first is stopped before the second starts.
      expect(isAlive(first)).toBe(false);
      await vi.waitFor(async () => expect(await alone.pids()).toHaveLength(2), { timeout: 20_000 });
      const second = (await alone.pids())[1] as number;
      await alone.run("session.close");
      expect(isAlive(second)).toBe(false);
      // A closed session is not prepared again (as upstream's runner refuses it): nothing starts.
      expect(await alone.run("run.prepare", codexPrepare(work))).toMatchObject({ status: "failed" });
      openArrives(alone);
      expect(await received(alone)).not.toContain("thread/start");
      expect(alone.events.map((event) => event.eventType)).toEqual(["session.closed"]);
      expect(await alone.pids()).toHaveLength(2);
    });
    await withExecutorAlone(async (alone, work) => {
      await alone.run("run.prepare", codexPrepare(work));
      openArrives(alone);
      const started = await startedAhead(alone);
      alone.executor.shutdown();
      await alone.executor.finished;
      expect(isAlive(started)).toBe(false);
      expect(await received(alone)).not.toContain("thread/start");
    });
  });

  it("is killed at once with a failing runner, and the state is left as run.prepare saved it", async () => {
    await withExecutorAlone(async (alone, work) => {
      await alone.run("run.prepare", codexPrepare(work));
      openArrives(alone);
      const pid = await startedAhead(alone);
      const saved = await alone.readState();
      await alone.executor.kill();
      expect(isAlive(pid)).toBe(false);
      expect(await alone.readState()).toEqual(saved);
      expect(await received(alone)).not.toContain("thread/start");
    });
  });

  it("that died before session.open fails it as a provider starting then would have, without a second start", async () => {
    await withExecutorAlone(async (alone, work) => {
      await alone.run("run.prepare", codexPrepare(work, { args: fakeCodexArgs("exit-before-initialize") }));
      openArrives(alone);
      await vi.waitFor(async () => expect(await alone.pids()).toHaveLength(1), { timeout: 20_000 });
      const [pid] = await alone.pids();
      await vi.waitFor(() => expect(isAlive(pid as number)).toBe(false), { timeout: 20_000 });
      const opened = await alone.run("session.open");
      expect(opened).toMatchObject({ status: "failed" });
      expect(String(opened.detail)).toContain("code 3");
      expect(await alone.pids()).toEqual([pid]);
      expect(alone.events.map((event) => event.eventType)).toEqual(["harness.diagnostic", "session.failed"]);
      expect(alone.events[0]?.payload).toMatchObject({ code: "provider_start_failed" });
    });
  });
});
