import { describe, expect, it } from "vitest";
import type { ExecutorContext } from "../src/provider/executor-context.js";
import { codexPrepare, withWork } from "./helpers/codex-durable.js";
import { executorAlone, stopAll } from "./helpers/codex-executor-alone.js";

// The Codex executor alone on the fake app-server: what a turn.stop left (Codex started again for a
// goal command) ends once the session opens again or a turn is accepted.
const stoppedByTurnStop = (executor: unknown): boolean =>
  (executor as { ctx: ExecutorContext }).ctx.stoppedByTurnStop;

describe("the turn.stop mark", { timeout: 30_000 }, () => {
  it("is cleared by the next session.open, and by the next accepted turn", async () => {
    await withWork(async (work) => {
      const { executor, run, pids } = await executorAlone(work);
      try {
        await run("run.prepare", codexPrepare(work, { contract: false }));
        await run("session.open");
        await run("turn.stop");
        expect(stoppedByTurnStop(executor)).toBe(true);
        await run("session.open");
        expect(stoppedByTurnStop(executor)).toBe(false);
        await run("turn.stop");
        expect(stoppedByTurnStop(executor)).toBe(true);
        expect(await run("turn.start", { text: "hello" })).toMatchObject({ status: "accepted" });
        expect(stoppedByTurnStop(executor)).toBe(false);
        await run("turn.stop");
      } finally {
        executor.shutdown();
        await executor.finished;
        await stopAll(pids);
      }
    });
  });
});
