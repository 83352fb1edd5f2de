import { describe, expect, it } from "vitest";
import {
  IMAGE_RESULT_ITEMS,
  SECRET_RESULT_TEXT,
  // @ts-expect-error the scenario is a plain ES module shared with the Node 24 driver
} from "../driver/breadth-scenario.mjs";
// @ts-expect-error the scenario is a plain ES module shared with the Node 24 driver
import { SECRET_CORES, SECRET_SHAPES } from "../driver/secret-shapes.mjs";
import { ACCEPTED_BREADTH_DIFFERENCES } from "../src/accepted-differences.js";
import type { CommittedEvent, ScenarioOutcome } from "../src/run-scenario.js";
import { expectSameCommandResults, expectSameStreams, sideBySideBeforeAll } from "../src/side-by-side.js";

const COMPLETED_STEPS = [
  "cached-usage",
  "chain",
  "plan",
  "multi-input",
  "secret-answer",
  "secret-input",
  "secret-result",
  "image-result",
  "empty-result",
  "secret-steer",
  "encrypted-reasoning",
  "refusal",
  "after-stream-failures",
  "compacted",
];
const FAILED_STEPS = ["failed-in-stream", "incomplete", "quota", "context-in-stream"];
/** The server's transport cannot checkpoint a close while its own handler still owes a tool result. */
const CLOSE_WITH_CALL_OWED = /runner did not durably suspend before checkpoint/;

const payloads = (events: readonly CommittedEvent[], type: string) =>
  events.filter((event) => event.eventType === type).map((event) => event.payload as Record<string, unknown>);

/** The secret shapes whose core is somewhere in the committed events or the commands' results. */
function leakedShapes(outcome: ScenarioOutcome): string[] {
  const committed = JSON.stringify([outcome.events, outcome.commands]);
  return Object.keys(SECRET_SHAPES).filter((_, index) => committed.includes(SECRET_CORES[index]));
}

/** What the server's transport read back of a turn (`thread/turns/list`, `thread/items/list`), ids left out. */
function history(outcome: ScenarioOutcome): unknown {
  const line = outcome.transcript.split("\n").find((entry) => entry.includes('"type":"history"'));
  const { turns, items } = JSON.parse(line ?? "{}") as {
    turns: { status: string }[];
    items: { item: { type: string; text: unknown } }[];
  };
  return {
    turns: turns.map((turn) => turn.status),
    items: items.map(({ item }) => [item.type, item.text]),
  };
}

/** Every step went as the server expects, whichever runner ran it. */
function expectBreadthWorked(outcome: ScenarioOutcome): void {
  const failed = [...outcome.steps.values()].filter(
    (step) => step.error !== undefined && step.step !== "closed",
  );
  expect(failed, outcome.transcript.slice(-4_000)).toEqual([]);
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  for (const step of COMPLETED_STEPS) expect(outcome.steps.get(step)?.status, step).toBe("completed");
  for (const step of FAILED_STEPS) expect(outcome.steps.get(step)?.status, step).toBe("failed");
  expect(outcome.steps.get("chain")).toMatchObject({ modelRequests: 3 });
  // The steers reach the model's second request; the context-window error makes Codex compact first.
  for (const step of ["plan", "secret-steer", "compacted"]) {
    expect(outcome.steps.get(step), step).toMatchObject({ modelRequests: 2 });
  }
  expect(outcome.steps.get("multi-input")).toMatchObject({ reachedModel: [true, true, true] });
  expect(outcome.steps.get("history")).toMatchObject({ turns: 1, items: 2 });
  expect(outcome.steps.has("tool-at-close")).toBe(true);
  expect(outcome.steps.get("closed")?.error).toMatch(CLOSE_WITH_CALL_OWED);
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers, "the close stopped the runner and Codex").toEqual([]);
}

/** Usage with cached tokens; the compaction item; what the model was told of each tool call. */
function expectBreadthStream(outcome: ScenarioOutcome): void {
  const first = payloads(outcome.events, "usage.reported")[0]?.cumulative;
  expect(first).toMatchObject({ inputTokens: 5_000, outputTokens: 300, cacheReadTokens: 4_096 });
  expect(
    payloads(outcome.events, "item.completed").filter((payload) => payload.kind === "contextCompaction"),
  ).toHaveLength(1);
  const told = Object.values(outcome.modelToolOutputs);
  expect(told).toContain("unsupported call: update_plan");
  // A result that is not one JSON text reaches the model as the whole answer, keys sorted.
  expect(told).toContain(
    JSON.stringify({ contentItems: [{ text: SECRET_RESULT_TEXT, type: "inputText" }], success: true }),
  );
  expect(told).toContain(
    JSON.stringify({
      contentItems: IMAGE_RESULT_ITEMS.map(({ type, ...rest }: { type: string }) => ({ ...rest, type })),
      success: true,
    }),
  );
  expect(told).toContain('{"contentItems":[],"success":true}');
  expect(outcome.toolCalls).toHaveLength(6);
}

describe("cached usage, chained calls, an unoffered plan tool, several input items, secret shapes everywhere, tool results of text, image and nothing, two steers, encrypted reasoning, a refusal, response.failed/incomplete, a quota, a compaction and a close owing a tool result, real Codex: upstream's runner and ours", {
  timeout: 300_000,
}, () => {
  const outcomes = sideBySideBeforeAll("breadth");

  it("upstream's runner takes every step (the reference), and leaves four secret shapes in its committed answer", () => {
    const { upstream } = outcomes();
    expectBreadthWorked(upstream);
    expectBreadthStream(upstream);
    expect(leakedShapes(upstream)).toEqual(["aws", "google", "slack", "urlCredentials"]);
  });

  it("ours takes the same steps, leaks no secret shape, tells the model what upstream's tells it, and commits the same normalised stream but for the listed redactions", () => {
    const { upstream, ours } = outcomes();
    expectBreadthWorked(ours);
    expectBreadthStream(ours);
    expect(leakedShapes(ours)).toEqual([]);
    expect(ours.modelToolOutputs).toEqual(upstream.modelToolOutputs);
    expect(ours.toolCalls).toEqual(upstream.toolCalls);
    expect(history(ours)).toEqual(history(upstream));
    expect(ours.steps.get("closed")?.error).toBe(upstream.steps.get("closed")?.error);
    expectSameStreams(outcomes(), ACCEPTED_BREADTH_DIFFERENCES);
  });

  it("ours answers every command the server queued (the steers with a correlation id, the stop owing a tool result) as upstream's, but for the listed differences", () => {
    const { upstream, ours } = outcomes();
    const steers = (outcome: ScenarioOutcome) =>
      outcome.commands.filter((command) => command.type === "turn.steer");
    expect(steers(ours)).toEqual([
      { type: "turn.steer", status: "completed", result: { status: "steered" } },
      { type: "turn.steer", status: "completed", result: { status: "steered" } },
    ]);
    expect(steers(ours)).toEqual(steers(upstream));
    const tail = (outcome: ScenarioOutcome) =>
      outcome.commands.slice(-2).map((command) => [command.type, command.status]);
    expect(tail(ours)).toEqual([
      ["turn.stop", "completed"],
      ["runner.suspend", "completed"],
    ]);
    expect(tail(ours)).toEqual(tail(upstream));
    expectSameCommandResults(outcomes());
  });
});
