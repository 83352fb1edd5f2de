import { describe, expect, it } from "vitest";
// @ts-expect-error the scenario is a plain ES module shared with the Node 24 driver
import { LARGE_TEXTS, TEN_CALLS } from "../driver/limits-scenario.mjs";
import type { ScenarioOutcome } from "../src/run-scenario.js";
import { expectSameCommandResults, expectSameStreams, sideBySideBeforeAll } from "../src/side-by-side.js";

const TURNS = [...Object.keys(LARGE_TEXTS), "large-steer", "ten-calls"];

/** Every step went as the server expects, whichever runner ran it. */
function expectLimits(outcome: ScenarioOutcome): void {
  const failed = [...outcome.steps.values()].filter((step) => step.error !== undefined);
  expect(failed, outcome.transcript.slice(-4_000)).toEqual([]);
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  for (const step of TURNS) expect(outcome.steps.get(step)?.status, step).toBe("completed");
  for (const step of [...Object.keys(LARGE_TEXTS), "large-steer"]) {
    expect(outcome.steps.get(`${step}:told`), step).toMatchObject({ reachedModel: true });
  }
  expect(outcome.toolCalls.map((call) => call.arguments)).toEqual(
    TEN_CALLS.map((body: string) => ({ body })),
  );
  const results = outcome.events.filter((event) => event.eventType === "semantic_tool.result");
  expect(results).toHaveLength(TEN_CALLS.length);
  expect(Object.values(outcome.modelToolOutputs)).toEqual(TEN_CALLS.map(() => '{"recorded":true}'));
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers, "the close stopped the runner and Codex").toEqual([]);
}

describe("turn texts and a steer of 100 000 bytes (ASCII, 3-byte characters), ten calls in one response, real Codex: upstream's runner and ours", {
  timeout: 300_000,
}, () => {
  const outcomes = sideBySideBeforeAll("limits");

  it("upstream's runner takes every step (the reference)", () => {
    expectLimits(outcomes().upstream);
  });

  it("ours takes the same steps and commits the same normalised stream", () => {
    const { upstream, ours } = outcomes();
    expectLimits(ours);
    expect(ours.modelToolOutputs).toEqual(upstream.modelToolOutputs);
    expectSameStreams(outcomes());
  });

  it("ours answers every command the server queued as upstream's", () => {
    expectSameCommandResults(outcomes());
  });
});
