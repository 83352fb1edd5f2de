import { describe, expect, it } from "vitest";
// @ts-expect-error the scenario is a plain ES module shared with the Node 24 driver
import { NON_OBJECT_ARGUMENTS } from "../driver/odd-calls-scenario.mjs";
import type { CommittedEvent, ScenarioOutcome } from "../src/run-scenario.js";
import { expectSameCommandResults, expectSameStreams, sideBySideBeforeAll } from "../src/side-by-side.js";

/** What upstream's runner tells the model of a call it denies. */
const DENIED = JSON.stringify({
  error: {
    code: "invalid_tool_call",
    message: "Paperclip rejected this semantic tool call",
    retryable: false,
  },
});
const RECORDED = JSON.stringify({ recorded: true });
const COMPLETED_STEPS = [
  ...Object.keys(NON_OBJECT_ARGUMENTS),
  "duplicate-same-input",
  "duplicate-call-id",
  "reused-across-turns",
  "known-and-unknown",
  "after-odd-calls",
];

/** Every output the model was told, in order, as the driver printed it. */
function modelOutputList(outcome: ScenarioOutcome): [string, string][] {
  const line = outcome.transcript.split("\n").find((entry) => entry.includes('"model_tool_output_list"'));
  return (JSON.parse(line ?? '{"outputs":[]}') as { outputs: [string, string][] }).outputs;
}

const denials = (events: readonly CommittedEvent[]) =>
  events
    .map((event) => ({ priority: event.priority, payload: event.payload as Record<string, unknown> }))
    .filter(({ payload }) => payload.code === "semantic_tool_denied")
    .map(({ priority, payload }) => [priority, payload.callId, payload.message]);

/** Every step went as the server expects, whichever runner ran it; the calls were answered as upstream's runner answers them. */
function expectOddCalls(outcome: ScenarioOutcome): void {
  const failed = [...outcome.steps.values()].filter((step) => step.error !== undefined);
  expect(failed, outcome.transcript.slice(-4_000)).toEqual([]);
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  for (const step of COMPLETED_STEPS) {
    expect(outcome.steps.get(step), step).toMatchObject({ status: "completed" });
  }
  // The server's handler saw one call of each id: the twin's second was answered from the first.
  expect(outcome.toolCalls.map((call) => call.arguments)).toEqual([
    { body: "same of one id" },
    { body: "first of one id" },
    { body: "the known one" },
  ]);
  expect(modelOutputList(outcome)).toEqual([
    // JSON that is no object fails the tool's schema: denied before the control plane.
    ...Object.keys(NON_OBJECT_ARGUMENTS).map((_, index) => [`call_stub_${2 * index + 1}_0`, DENIED]),
    ["call_stub_twin", RECORDED],
    ["call_stub_twin", RECORDED],
    ["call_stub_same", RECORDED],
    ["call_stub_same", DENIED],
    ["call_stub_twin", DENIED],
    ["call_stub_same", DENIED],
    ["call_stub_15_0", RECORDED],
    ["call_stub_15_1", "unsupported call: delete_everything"],
  ]);
  expect(denials(outcome.events).slice(-3)).toEqual([
    [0, "call_stub_same", "provider replayed a completed tool call with different input"],
    [0, "call_stub_twin", "provider reused a completed tool call id"],
    [0, "call_stub_same", "provider reused a completed tool call id"],
  ]);
  expect(outcome.events.filter((event) => event.eventType === "semantic_tool.input")).toHaveLength(3);
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers, "the close stopped the runner and Codex").toEqual([]);
}

describe("call arguments that are JSON but no object, two calls of one id (same input, another input), call ids of earlier turns, a known and an unknown tool in one response, real Codex: upstream's runner and ours", {
  timeout: 300_000,
}, () => {
  const outcomes = sideBySideBeforeAll("odd-calls");

  it("upstream's runner answers a repeated call id from the first call, denies a conflicting or an earlier turn's one (the reference)", () => {
    expectOddCalls(outcomes().upstream);
  });

  it("ours answers and denies the same calls the same way, and commits the same normalised stream", () => {
    const { upstream, ours } = outcomes();
    expectOddCalls(ours);
    expect(modelOutputList(ours)).toEqual(modelOutputList(upstream));
    expectSameStreams(outcomes());
  });

  it("ours answers every command the server queued as upstream's", () => {
    expectSameCommandResults(outcomes());
  });
});
