import { beforeAll, describe, expect, it } from "vitest";
import {
  ACCEPTED_RECOVERY_DIFFERENCES,
  ACCEPTED_SESSION_DIFFERENCES,
  unlistedDifferences as unlisted,
} from "../src/accepted-differences.js";
import { diffEventStreams, normaliseEvents } from "../src/normalise-events.js";
import { runCodexScenario, type ScenarioOutcome } from "../src/run-scenario.js";
import { bothDrives, untilResumed } from "../src/side-by-side.js";
import { type CodexToolchain, OUR_RUNNER_BIN, resolveCodexToolchain } from "../src/toolchain.js";

let tools: CodexToolchain;
beforeAll(async () => {
  tools = await resolveCodexToolchain();
});

const SESSION_STEPS = [
  "identity",
  "plain",
  "tool",
  "steer",
  "interrupt",
  "model-error",
  "snapshot",
  "closed",
];

/** Asserts the session scenario went through every step as the server expects. */
function expectSessionWorked(outcome: ScenarioOutcome): void {
  const failed = [...outcome.steps.values()].filter((step) => step.error !== undefined);
  expect(failed, outcome.transcript.slice(-4_000)).toEqual([]);
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  for (const step of SESSION_STEPS) expect(outcome.steps.has(step), `step ${step}`).toBe(true);
  expect(outcome.steps.get("plain")?.status).toBe("completed");
  expect(outcome.answer).toBe("hello from the stub");
  expect(outcome.steps.get("tool")).toMatchObject({ status: "completed", modelRequests: 2 });
  expect(outcome.toolCalls).toEqual([
    { method: "item/tool/call", tool: "report_progress", arguments: { body: "half way" } },
  ]);
  expect(outcome.steps.get("steer")?.status).toBe("completed");
  expect(outcome.steerReachedModel).toBe(true);
  expect(outcome.steps.get("interrupt")?.status).toBe("interrupted");
  expect(outcome.steps.get("model-error")?.status).toBe("failed");
  expect(outcome.steps.get("snapshot")?.sameThread).toBe(true);
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers, "the close stopped the runner and Codex").toEqual([]);
  const types = outcome.events.map((event) => event.eventType);
  expect(types[0]).toBe("session.started");
  expect(types).toContain("semantic_tool.input");
  expect(types).toContain("semantic_tool.result");
  expect(types).toContain("usage.reported");
  expect(types).toContain("turn.interrupted");
  expect(types).toContain("turn.failed");
}

/** Asserts the recovery scenario resumed the exact thread, reconciled the killed turn and left no old provider. */
function expectRecoveryResumed(outcome: ScenarioOutcome): void {
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  expect(outcome.steps.get("plain")?.status).toBe("completed");
  const resumed = outcome.steps.get("resumed");
  expect(resumed, outcome.transcript.slice(-4_000)).toMatchObject({
    sameThread: true,
    oldProviderAlive: false,
  });
  const types = outcome.events.map((event) => event.eventType);
  expect(types).toContain("session.resumed");
  const failed = outcome.events.find(
    (event) =>
      event.eventType === "turn.failed" &&
      (event.payload as { providerTerminalObserved?: boolean }).providerTerminalObserved === false,
  );
  expect(failed, "the killed turn ends as failed, its terminal not observed").toBeDefined();
  expect(outcome.schemaIssues).toEqual([]);
  expect(new Set(outcome.events.map((event) => event.sourceEventId)).size).toBe(outcome.events.length);
}

/** Whether the runner committed a failed `semantic_tool.result` for the call pending at the kill. */
function settledPendingCall(outcome: ScenarioOutcome): boolean {
  return outcome.events.some(
    (event) =>
      event.eventType === "semantic_tool.result" &&
      (event.payload as { semantic_tool?: { outcome?: string } }).semantic_tool?.outcome === "failed",
  );
}

/** The session, recovery and recovery-tool scenarios with one runner, one after the other. */
async function runScenarios(runnerBin: string): Promise<[ScenarioOutcome, ScenarioOutcome, ScenarioOutcome]> {
  const session = await runCodexScenario(tools, runnerBin, "session");
  const recovery = await runCodexScenario(tools, runnerBin, "recovery");
  return [session, recovery, await runCodexScenario(tools, runnerBin, "recovery-tool")];
}

describe("upstream's Rust runner through the server's transport (the reference)", () => {
  let session: ScenarioOutcome;
  let recovery: ScenarioOutcome;
  let recoveryTool: ScenarioOutcome;
  let ours: ScenarioOutcome;
  let oursRecovery: ScenarioOutcome;
  let oursRecoveryTool: ScenarioOutcome;
  // Upstream's scenarios and ours run at once (each runner's one after the other): the
  // differential tests below read both.
  beforeAll(async () => {
    [[session, recovery, recoveryTool], [ours, oursRecovery, oursRecoveryTool]] = await bothDrives(
      runScenarios(tools.upstreamRunner),
      runScenarios(OUR_RUNNER_BIN),
    );
  }, 300_000);

  it("opens the thread, runs plain, tool-call, steer, interrupt and model-error turns, answers a snapshot and closes", () => {
    expectSessionWorked(session);
  });

  it("resumes after SIGKILL mid-turn, then fails the next turn with turn_binding_mismatch (the defect issue 18 names)", () => {
    expectRecoveryResumed(recovery);
    expect(recovery.steps.get("after-recovery")?.error).toMatch(/provider turn identity/);
    expect(
      recovery.events.some(
        (event) =>
          event.eventType === "harness.diagnostic" &&
          (event.payload as { code?: string }).code === "turn_binding_mismatch",
      ),
    ).toBe(true);
    expect(recovery.steps.has("closed")).toBe(true);
  });

  it("resumes after SIGKILL with a tool call pending and settles the call as failed", () => {
    expectRecoveryResumed(recoveryTool);
    expect(settledPendingCall(recoveryTool)).toBe(true);
  });

  describe("our runner, same transport, same Codex, same stub (differential)", () => {
    it("passes the same session steps", () => {
      expectSessionWorked(ours);
    });

    it("commits the same normalised event stream as upstream's runner in the session, but for the listed differences", () => {
      const differences = diffEventStreams(normaliseEvents(session.events), normaliseEvents(ours.events));
      expect(unlisted(differences, ACCEPTED_SESSION_DIFFERENCES), differences.join("\n")).toEqual([]);
    });

    it("resumes after SIGKILL like upstream's runner, and the next turn completes", () => {
      expectRecoveryResumed(oursRecovery);
      const differences = diffEventStreams(
        normaliseEvents(untilResumed(recovery.events)),
        normaliseEvents(untilResumed(oursRecovery.events)),
      );
      expect(unlisted(differences, ACCEPTED_RECOVERY_DIFFERENCES), differences.join("\n")).toEqual([]);
      expect(oursRecovery.steps.get("after-recovery"), oursRecovery.transcript.slice(-4_000)).toMatchObject({
        status: "completed",
      });
      expect(oursRecovery.steps.has("closed")).toBe(true);
    });

    it("resumes after SIGKILL with a tool call pending like upstream's runner, and the next turn completes", () => {
      expectRecoveryResumed(oursRecoveryTool);
      const differences = diffEventStreams(
        normaliseEvents(untilResumed(recoveryTool.events)),
        normaliseEvents(untilResumed(oursRecoveryTool.events)),
      );
      expect(unlisted(differences, ACCEPTED_RECOVERY_DIFFERENCES), differences.join("\n")).toEqual([]);
      expect(
        oursRecoveryTool.steps.get("after-recovery"),
        oursRecoveryTool.transcript.slice(-4_000),
      ).toMatchObject({
        status: "completed",
      });
    });
  });
});
