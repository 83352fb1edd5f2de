import { describe, expect, it } from "vitest";
import { diffEventStreams, normaliseEvents } from "../src/normalise-events.js";
import type { ScenarioOutcome } from "../src/run-scenario.js";
import { sideBySideBeforeAll, streamDifferences } from "../src/side-by-side.js";

const GOAL_STEPS = ["goal-get-empty", "goal-set", "goal-get", "goal-clear", "goal-get-cleared", "budget"];
const GOAL_COMMANDS = new Set([
  "session.goal.get",
  "session.goal.set",
  "session.goal.clear",
  "session.budget.increase",
]);

/** The goal scenario went through every step; the transport saw the goal Codex keeps. */
function expectGoalsWorked(outcome: ScenarioOutcome): void {
  const failed = [...outcome.steps.values()].filter((step) => step.error !== undefined);
  expect(failed, outcome.transcript.slice(-4_000)).toEqual([]);
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  for (const step of [...GOAL_STEPS, "snapshot", "closed"]) {
    expect(outcome.steps.has(step), `step ${step}`).toBe(true);
  }
  expect(outcome.steps.get("goal-get-empty")?.result).toEqual({ goal: null });
  expect(outcome.steps.get("goal-get")?.result).toMatchObject({
    goal: { objective: "Ship the release notes", status: "paused", tokenBudget: 5000 },
  });
  expect(outcome.steps.get("goal-get-cleared")?.result).toEqual({ goal: null });
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers).toEqual([]);
}

/** The goal and budget commands' results, as events, so the stream comparison applies to them too. */
const goalResults = (outcome: ScenarioOutcome) =>
  normaliseEvents(
    outcome.commands
      .filter((command) => GOAL_COMMANDS.has(command.type))
      .map((command) => ({
        eventType: command.type,
        payload: { status: command.status, result: command.result },
      })),
  );

describe("session goals through the server's transport, the real Codex: upstream's runner and ours", {
  timeout: 300_000,
}, () => {
  const outcomes = sideBySideBeforeAll("goals");

  it("upstream's runner sets, reads and clears a paused goal, and answers a budget increase for Codex as done", () => {
    expectGoalsWorked(outcomes().upstream);
    expect(outcomes().upstream.events.map((event) => event.eventType)).toContain("session.goal.cleared");
  });

  it("ours does the same, committing the same normalised stream (session.goal.snapshot|updated|cleared)", () => {
    expectGoalsWorked(outcomes().ours);
    const differences = streamDifferences(outcomes());
    expect(differences).toEqual([]);
  });

  it("ours answers the goal commands and the budget increase with upstream's results", () => {
    expect(goalResults(outcomes().ours)).toHaveLength(GOAL_STEPS.length);
    expect(diffEventStreams(goalResults(outcomes().upstream), goalResults(outcomes().ours))).toEqual([]);
  });
});
