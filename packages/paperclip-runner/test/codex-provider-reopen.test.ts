import { describe, expect, it } from "vitest";
import {
  closeSteps,
  commandOf,
  type DriverResult,
  driveCodexRunner,
  eventTypes,
  openSteps,
  providerRequests,
  type Step,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";

const toolchain = serverToolchainForFile();

/** A first run with one turn and the server's close, then the next run's fresh ticket. */
const firstRunThenRestart = (work: string): Step[] => [
  ...openSteps(work),
  { op: "queue", type: "turn.start", payload: { text: "first" }, id: "turn-1" },
  { op: "event", type: "run.terminal" },
  ...closeSteps,
  // Queued while no runner runs: the next run's runner takes it first and resumes for it.
  { op: "queue", type: "session.snapshot", id: "queued-snapshot" },
  { op: "restart" },
  { op: "command", id: "queued-snapshot" },
  { op: "queue", type: "runner.drain", id: "resume-probe" },
  { op: "command", id: "resume-probe" },
];

/** The resume's held facts: its startup facts (for the command that resumed), `session.resumed`, Codex's replayed usage. */
function expectResumeFacts(result: DriverResult, from: number): void {
  const facts = result.committed.slice(from, from + 4);
  expect(eventTypes(facts)).toEqual([
    "harness.diagnostic",
    "harness.diagnostic",
    "session.resumed",
    "harness.diagnostic",
  ]);
  expect(facts[0]?.payload).toMatchObject({
    code: "provider_startup_ownership",
    startup: { phase: "intent", trigger: "restore", command: { commandType: "session.snapshot" } },
  });
  expect(facts[3]?.payload).toMatchObject({ code: "codex_resume_usage_snapshot" });
}

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

  it("keeps them held through the resume probe when a command queued while no runner ran resumed first, until after the next turn's acceptance, as upstream's runner", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        ...firstRunThenRestart(work),
        { op: "queue", type: "session.snapshot", id: "snapshot-after-probe" },
        { op: "command", id: "snapshot-after-probe" },
        { op: "queue", type: "turn.start", payload: { text: "second" }, id: "turn-2" },
        { op: "event", type: "run.terminal", count: 2 },
        ...closeSteps.map((step) => ("id" in step ? { ...step, id: `${step.id}-2` } : step)),
      ]);
      expect(result.failure).toBeNull();
      expect(result.invalid).toEqual([]);
      const types = eventTypes(result.committed);
      const reconciled = types.indexOf("runner.reconciled");
      // Nothing between the runner's reconciliation and the turn's acceptance: the probe's drain released nothing.
      expect(types.slice(reconciled, reconciled + 2)).toEqual(["runner.reconciled", "turn.accepted"]);
      expectResumeFacts(result, reconciled + 2);
      expect(commandOf(result, "resume-probe")?.result.result).toEqual({
        status: "completed",
        retainedEventsDrained: false,
      });
      expect(commandOf(result, "turn-2")?.status).toBe("completed");
      expect(commandOf(result, "drain-2")?.result.result).toMatchObject({ retainedEventsDrained: true });
    });
  });

  it("commits them just after the answer of the drain after the resume probe when no turn comes (the server's close)", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        ...firstRunThenRestart(work),
        { op: "queue", type: "runner.drain", id: "close-drain" },
        { op: "command", id: "close-drain" },
        { op: "event", type: "session.resumed" },
        { op: "queue", type: "runner.drain", id: "close-drain-again" },
        { op: "command", id: "close-drain-again" },
        { op: "queue", type: "runner.suspend", id: "suspend-2" },
        { op: "exit" },
      ]);
      expect(result.failure).toBeNull();
      const types = eventTypes(result.committed);
      const reconciled = types.indexOf("runner.reconciled");
      // As upstream's runner: the startup facts and session.resumed, just after that drain's answer
      // (`retainedEventsDrained:false`), without the replayed usage (`codex-startup-release-upstream.test.ts`).
      expect(types.slice(reconciled + 1)).toEqual([
        "harness.diagnostic",
        "harness.diagnostic",
        "session.resumed",
      ]);
      expect(commandOf(result, "close-drain")?.result.result).toMatchObject({ retainedEventsDrained: false });
      expect(commandOf(result, "close-drain-again")?.result.result).toMatchObject({
        retainedEventsDrained: true,
      });
    });
  });
});
