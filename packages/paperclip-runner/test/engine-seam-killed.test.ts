import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { CommandApplier } from "../src/durable/engine/command-applier.js";
import { EngineSeam } from "../src/durable/engine/engine-seam.js";
import { initialDurableState } from "../src/durable/state/durable-state.js";
import { StateCommitter } from "../src/durable/state/state-committer.js";
import { codexPrepare, withWork } from "./helpers/codex-durable.js";
import { commandSeries, executorAlone, stopAll } from "./helpers/codex-executor-alone.js";
import { TEST_DURABLE_IDENTITY } from "./helpers/durable-identity.js";

// A runner that fails kills its engine's processes (`killHarness`) and leaves; the commands its
// applier still had queued (the server sends run.prepare and session.open at once) go on after
// that. Killed before any engine was bound, the seam must not bind one for them: an executor
// bound then was never killed, and started the Codex provider the failing runner left running.
// They are left unanswered, pending in the journal, as a crash leaves them.

/** Far past the few milliseconds in which the old code had both commands applied. */
const UNANSWERED_MS = 500;

describe("an engine seam killed before anything was bound", { timeout: 60_000 }, () => {
  it("binds no engine for the commands applied after, answers none, and no provider starts", async () => {
    await withWork(async (work) => {
      const commandOf = commandSeries();
      const alone = await executorAlone(work);
      const bound: string[] = [];
      const seam = new EngineSeam({
        recovered: null,
        scripted: () => Promise.reject(new Error("a Codex run binds no scripted engine")),
        provider: () => {
          bound.push("provider");
          return { engine: alone.executor, kill: () => alone.executor.kill() };
        },
      });
      // The journal's own writes are tested elsewhere: here it is kept in memory.
      const committer = new StateCommitter(
        initialDurableState(TEST_DURABLE_IDENTITY, "0.0.0", "sha256:0"),
        () => Promise.resolve(),
      );
      const results: Record<string, unknown>[] = [];
      const applier = new CommandApplier({
        committer,
        engine: seam,
        turnId: "turn-1",
        historyLimit: 4096,
        sendResult: (result) => results.push(result),
        answered: () => undefined,
        claimStreamEnd: () => true,
        onStreamEnd: () => undefined,
      });
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
});
