import { isAlive } from "@paperclipai/test-support";
import { describe, expect, it, vi } from "vitest";
import { EngineSeam } from "../src/durable/engine/engine-seam.js";
import type { ExecutorContext } from "../src/provider/executor-context.js";
import { codexPrepare, withWork } from "./helpers/codex-durable.js";
import { commandSeries, executorAlone, stopAll } from "./helpers/codex-executor-alone.js";
import { inMemoryApplier } from "./helpers/in-memory-applier.js";

// Durable mode's side of starting a provider ahead: the commands that arrive together (the
// server queues run.prepare and session.open at once) reach the engine bound by the first of
// them, through the seam; one the journal already answered does not.

describe("commands told to the engine on arrival", { timeout: 60_000 }, () => {
  it("a session.open arriving with run.prepare starts the provider once run.prepare binds it; a journalled one starts nothing", async () => {
    await withWork(async (work) => {
      // The applier's journal is fresh: it takes the server's first command as seq 1.
      const commandOf = commandSeries();
      const alone = await executorAlone(work);
      const ctx = (alone.executor as unknown as { ctx: ExecutorContext }).ctx;
      const seam = new EngineSeam({
        recovered: null,
        scripted: () => Promise.reject(new Error("a Codex run binds no scripted engine")),
        provider: () => ({ engine: alone.executor, kill: () => alone.executor.kill() }),
      });
      const { applier, results } = inMemoryApplier(seam);
      try {
        const prepare = commandOf("run.prepare", codexPrepare(work));
        const open = commandOf("session.open");
        applier.arrived(prepare);
        applier.arrived(open);
        expect(ctx.prewarmed).toBeNull();
        await applier.handle(prepare);
        expect(ctx.prewarmed).not.toBeNull();
        await vi.waitFor(async () => expect(await alone.pids()).toHaveLength(1), { timeout: 20_000 });
        const [pid] = await alone.pids();
        await applier.handle(open);
        expect(results.at(-1)).toMatchObject({ status: "completed", result: { processId: pid } });
        await applier.handle(commandOf("session.close"));
        expect(isAlive(pid as number)).toBe(false);
        // Prepared again, and the same session.open delivered again: the journal answers it, nothing starts.
        await applier.handle(commandOf("run.prepare", codexPrepare(work)));
        applier.arrived(open);
        expect(ctx.prewarmed).toBeNull();
        await applier.handle(open);
        expect(results.at(-1)).toMatchObject({ result: { processId: pid } });
        expect(ctx.prewarmed).toBeNull();
        expect(await alone.pids()).toEqual([pid]);
      } finally {
        alone.executor.shutdown();
        await alone.executor.finished;
        await stopAll(alone.pids);
      }
    });
  });
});
