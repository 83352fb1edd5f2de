import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { DurableEngine } from "../src/durable/engine/durable-engine.js";
import { EngineSeam } from "../src/durable/engine/engine-seam.js";
import { codexPrepare, withWork } from "./helpers/codex-durable.js";
import { commandSeries, executorAlone, stopAll } from "./helpers/codex-executor-alone.js";
import { inMemoryApplier } from "./helpers/in-memory-applier.js";
import { heldEngine } from "./helpers/in-process-runner.js";

// A runner that fails kills its engine's processes (`killHarness`) and leaves; the commands its
// applier still had queued (the server sends run.prepare and session.open at once) go on after
// that. Killed before any engine was bound, the seam must not bind one for them: an executor
// bound then was never killed, and started the Codex provider the failing runner left running.
// They are left unanswered, pending in the journal, as a crash leaves them.

/** Far past the few milliseconds in which the old code had both commands applied. */
const UNANSWERED_MS = 500;

/** A fresh seam of a Codex run (no recovered engine) binding `provider`; `bound` notes each binding. */
function providerSeam(provider: () => { engine: DurableEngine; kill: () => Promise<void> }) {
  const bound: string[] = [];
  const seam = new EngineSeam({
    recovered: null,
    scripted: () => Promise.reject(new Error("a Codex run binds no scripted engine")),
    provider: () => {
      bound.push("provider");
      return provider();
    },
  });
  return { seam, bound };
}

describe("an engine seam killed before anything was bound", { timeout: 60_000 }, () => {
  it("binds no engine for the commands applied after, answers none, and no provider starts", async () => {
    await withWork(async (work) => {
      const commandOf = commandSeries();
      const alone = await executorAlone(work);
      const { seam, bound } = providerSeam(() => ({
        engine: alone.executor,
        kill: () => alone.executor.kill(),
      }));
      const { applier, committer, results } = inMemoryApplier(seam);
      try {
        const prepare = commandOf("run.prepare", codexPrepare(work));
        const open = commandOf("session.open");
        applier.arrived(prepare);
        applier.arrived(open);
        await seam.kill();
        const handled = (async () => {
          await applier.handle(prepare);
          await applier.handle(open);
        })();
        // The old code had bound the executor and answered both within a few milliseconds.
        const answered = await Promise.race([
          handled.then(() => true),
          delay(UNANSWERED_MS).then(() => false),
        ]);
        expect(await alone.pids()).toEqual([]);
        expect(bound).toEqual([]);
        // Left pending in the journal, indeterminate for the next runner, as after a crash.
        expect(answered).toBe(false);
        expect(committer.state.processedCommands[prepare.commandId]).toMatchObject({ status: "pending" });
        expect(results).toEqual([]);
      } finally {
        alone.executor.shutdown();
        await alone.executor.finished;
        await stopAll(alone.pids);
      }
    });
  });

  it("binds nothing for a command whose kill lands while it waits for the deferred binding", async () => {
    const { seam, bound } = providerSeam(() => ({ engine: heldEngine(), kill: async () => undefined }));
    const prepare = commandSeries()("run.prepare", { provider: { kind: "codex" } });
    const answer = seam.command(prepare, 1).then(
      () => "answered",
      () => "answered",
    );
    // The same tick: the command has passed its first check and awaits the (settled) binding.
    await seam.kill();
    const marker = new Promise<string>((resolve) => setImmediate(() => resolve("unanswered")));
    expect(await Promise.race([answer, marker])).toBe("unanswered");
    expect(bound).toEqual([]);
  });
});
