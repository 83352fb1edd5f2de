import { describe, expect, it } from "vitest";
// @ts-expect-error the scenario is a plain ES module shared with the Node 24 driver
import { COMPARED_RESULTS, LONG_SESSION_TURNS } from "../driver/results-scenario.mjs";
import type { ScenarioOutcome } from "../src/run-scenario.js";
import { expectSameCommandResults, expectSameStreams, sideBySideBeforeAll } from "../src/side-by-side.js";

const TURNS = [
  ...COMPARED_RESULTS.map((body: string) => body.replaceAll(" ", "-")),
  ...Array.from({ length: LONG_SESSION_TURNS }, (_, index) => `turn-${index + 1}`),
];

/** Every step went as the server expects, whichever runner ran it. */
function expectResults(outcome: ScenarioOutcome): void {
  const failed = [...outcome.steps.values()].filter((step) => step.error !== undefined);
  expect(failed, outcome.transcript.slice(-4_000)).toEqual([]);
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  for (const step of TURNS) expect(outcome.steps.get(step)?.status, step).toBe("completed");
  expect(outcome.steps.get("read-after-long-session")).toMatchObject({ sameThread: true });
  expect(outcome.toolCalls.map((call) => call.arguments)).toEqual(
    COMPARED_RESULTS.map((body: string) => ({ body })),
  );
  expect(outcome.events.filter((event) => event.eventType === "turn.completed")).toHaveLength(TURNS.length);
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers, "the close stopped the runner and Codex").toEqual([]);
}

describe("tool results of 100 000 bytes, of control characters and of 300 items, then 30 turns, a read and the close, real Codex: upstream's runner and ours", {
  timeout: 300_000,
}, () => {
  const outcomes = sideBySideBeforeAll("results");

  it("upstream's runner takes every step (the reference)", () => {
    expectResults(outcomes().upstream);
  });

  it("ours takes the same steps, tells the model the same and commits the same normalised stream", () => {
    const { upstream, ours } = outcomes();
    expectResults(ours);
    expect(ours.modelToolOutputs).toEqual(upstream.modelToolOutputs);
    expectSameStreams(outcomes());
  });

  it("ours answers every command the server queued as upstream's", () => {
    expectSameCommandResults(outcomes());
  });
});
