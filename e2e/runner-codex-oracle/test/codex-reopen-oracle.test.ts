import { describe, expect, it } from "vitest";
import { unlistedDifferences } from "../src/accepted-differences.js";
import { commandResults } from "../src/command-results.js";
import { diffEventStreams } from "../src/normalise-events.js";
import type { ScenarioOutcome } from "../src/run-scenario.js";
import { sideBySideBeforeAll, streamDifferences } from "../src/side-by-side.js";

/** Both runs went through; the second resumed the first one's thread and ran its turn. */
function expectBothRuns(outcome: ScenarioOutcome): void {
  const failed = [...outcome.steps.values()].filter((step) => step.error !== undefined);
  expect(failed, outcome.transcript.slice(-4_000)).toEqual([]);
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  expect(outcome.steps.get("plain")?.status).toBe("completed");
  expect(outcome.steps.has("first-close")).toBe(true);
  expect(outcome.steps.get("reopened")?.sameThread).toBe(true);
  expect(outcome.steps.get("second")?.status).toBe("completed");
  expect(outcome.steps.has("closed")).toBe(true);
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers).toEqual([]);
}

/** A clean reopen: the startup facts after the next turn's acceptance, no reconciliation. */
function expectReopened(outcome: ScenarioOutcome): void {
  expectBothRuns(outcome);
  const types = outcome.events.map((event) => event.eventType);
  // A clean resume reconciles no turn; its startup facts follow the next turn's acceptance.
  expect(types).not.toContain("session.reconciled");
  const resumed = types.indexOf("session.resumed");
  expect(resumed).toBeGreaterThan(types.lastIndexOf("turn.accepted"));
  expect(types.slice(resumed + 1, resumed + 3)).toEqual(["harness.diagnostic", "session.goal.cleared"]);
  expect(outcome.events[resumed + 1]?.payload).toMatchObject({
    code: "codex_resume_usage_snapshot",
    classification: "resume_usage_snapshot",
  });
}

describe("a session closed, then reopened by the next run on the same state, real Codex: upstream's runner and ours", {
  timeout: 300_000,
}, () => {
  const outcomes = sideBySideBeforeAll("reopen");

  it("upstream's runner resumes the thread cleanly (the reference)", () => {
    expectReopened(outcomes().upstream);
  });

  it("ours resumes it the same way, committing the same normalised stream", () => {
    expectReopened(outcomes().ours);
    expect(streamDifferences(outcomes())).toEqual([]);
  });

  it("ours answers the server's commands (the resume probe's drain and snapshots among them) as upstream's, but for the listed differences", () => {
    const differences = diffEventStreams(
      commandResults(outcomes().upstream),
      commandResults(outcomes().ours),
    );
    expect(unlistedDifferences(differences, {}), differences.join("\n")).toEqual([]);
  });
});

describe("a session closed with a turn in flight (turn.stop), then reopened by the next run, real Codex: upstream's runner and ours", {
  timeout: 300_000,
}, () => {
  const outcomes = sideBySideBeforeAll("reopen-stopped");

  /** The first close stopped the turn; the second run's turn completed on the same thread. */
  function expectStoppedThenReopened(outcome: ScenarioOutcome): void {
    expectBothRuns(outcome);
    expect(outcome.steps.has("in-flight")).toBe(true);
    const stop = outcome.commands.find((command) => command.type === "turn.stop");
    expect(stop).toMatchObject({ status: "completed", result: { status: "stopped", reason: "turn.stop" } });
    const types = outcome.events.map((event) => event.eventType);
    expect(types).not.toContain("turn.interrupted");
    expect(types).not.toContain("session.reconciled");
    // The provider starts again for the next turn: its startup facts follow that turn's acceptance.
    expect(types).not.toContain("session.resumed");
    const accepted = types.lastIndexOf("turn.accepted");
    expect(types.slice(accepted, accepted + 3)).toEqual([
      "turn.accepted",
      "harness.diagnostic",
      "harness.diagnostic",
    ]);
    expect(outcome.events[accepted + 1]?.payload).toMatchObject({
      code: "provider_startup_ownership",
      startup: { trigger: "ensure", command: { commandType: "turn.start" } },
    });
  }

  it("upstream's runner starts Codex again for the next run's turn, on the same thread (the reference)", () => {
    expectStoppedThenReopened(outcomes().upstream);
  });

  it("ours does the same, committing the same normalised stream and command results", () => {
    expectStoppedThenReopened(outcomes().ours);
    expect(streamDifferences(outcomes())).toEqual([]);
    const differences = diffEventStreams(
      commandResults(outcomes().upstream),
      commandResults(outcomes().ours),
    );
    expect(unlistedDifferences(differences, {}), differences.join("\n")).toEqual([]);
  });
});
