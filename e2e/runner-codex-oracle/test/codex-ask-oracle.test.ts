import { describe, expect, it } from "vitest";
import type { ScenarioOutcome } from "../src/run-scenario.js";
import { sideBySideBeforeAll, streamDifferences } from "../src/side-by-side.js";

/** The model asked one question through Codex, the server's handler saw it, the board's answer reached the model. */
function expectAnswered(outcome: ScenarioOutcome): void {
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  expect(outcome.steps.get("ask"), outcome.transcript.slice(-4_000)).toMatchObject({
    status: "completed",
    modelRequests: 2,
  });
  expect(outcome.userInputs?.requests).toHaveLength(1);
  expect(outcome.userInputs?.requests[0]?.params).toMatchObject({
    questions: [{ id: "color", question: "Which colour?", options: [{ label: "red" }, { label: "blue" }] }],
  });
  expect(outcome.userInputs?.answerReachedModel).toBe(true);
  const types = outcome.events.map((event) => event.eventType);
  expect(types.indexOf("runtime_request.resolved")).toBeGreaterThan(types.indexOf("runtime_request.created"));
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers).toEqual([]);
}

describe("Codex asks the user (request_user_input → item/tool/requestUserInput), real Codex, both runners", {
  timeout: 300_000,
}, () => {
  const outcomes = sideBySideBeforeAll("ask");

  it("upstream's runner turns the question into a runtime request and delivers the server's answer", () => {
    expectAnswered(outcomes().upstream);
  });

  it("ours does the same and commits the same normalised stream", () => {
    expectAnswered(outcomes().ours);
    expect(streamDifferences(outcomes())).toEqual([]);
  });
});
