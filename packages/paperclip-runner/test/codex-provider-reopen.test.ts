import { describe, expect, it } from "vitest";
import {
  closeSteps,
  commandOf,
  driveCodexRunner,
  eventTypes,
  openSteps,
  providerRequests,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";

const toolchain = serverToolchainForFile();

describe("a Codex session suspended cleanly, then reopened by the next run", { timeout: 120_000 }, () => {
  it("resumes the thread on the first command and commits its startup facts after the next turn's acceptance, as upstream's runner", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work),
        { op: "queue", type: "turn.start", payload: { text: "first" }, id: "turn-1" },
        { op: "event", type: "run.terminal" },
        ...closeSteps,
        // The next run: a fresh ticket, the server's resume probe (a drain), then a turn.
        { op: "restart" },
        { op: "queue", type: "runner.drain", id: "resume-probe" },
        { op: "command", id: "resume-probe" },
        { op: "queue", type: "turn.start", payload: { text: "second" }, id: "turn-2" },
        { op: "event", type: "run.terminal", count: 2 },
        { op: "queue", type: "runner.drain", id: "drain-2" },
        { op: "command", id: "drain-2" },
        { op: "queue", type: "runner.suspend", id: "suspend-2" },
        { op: "exit" },
      ]);
      expect(result.failure).toBeNull();
      expect(result.invalid).toEqual([]);
      expect(result.exits).toEqual([
        { phase: "final", code: 0, signal: null },
        { phase: "final", code: 0, signal: null },
      ]);
      const types = eventTypes(result.committed);
      const reconciled = types.indexOf("runner.reconciled");
      // The startup facts are held back (the probe's drain says so) until after turn.accepted.
      expect(commandOf(result, "resume-probe")?.result.result).toEqual({
        status: "completed",
        retainedEventsDrained: false,
      });
      expect(types.slice(reconciled, reconciled + 6)).toEqual([
        "runner.reconciled",
        "turn.accepted",
        "harness.diagnostic",
        "harness.diagnostic",
        "session.resumed",
        "harness.diagnostic",
      ]);
      expect(types).not.toContain("session.reconciled");
      // Codex's replay of the first turn's usage is a diagnostic, not the second turn's usage.
      expect(result.committed[reconciled + 5]?.payload).toMatchObject({
        code: "codex_resume_usage_snapshot",
        classification: "resume_usage_snapshot",
        method: "thread/tokenUsage/updated",
        receivedTurnId: "turn-1",
      });
      expect(commandOf(result, "turn-2")?.status).toBe("completed");
      expect(commandOf(result, "drain-2")?.result.result).toMatchObject({ retainedEventsDrained: true });
      expect(providerRequests(result, "thread/resume")).toHaveLength(1);
    });
  });
});
