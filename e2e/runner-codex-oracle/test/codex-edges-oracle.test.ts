import { describe, expect, it } from "vitest";
// @ts-expect-error the scenario is a plain ES module shared with the Node 24 driver
import { REFUSED_TOOL_BODY, SECRET_GITHUB, SECRET_OPENAI } from "../driver/edge-scenario.mjs";
import { ACCEPTED_EDGE_DIFFERENCES, unlistedDifferences } from "../src/accepted-differences.js";
import { commandResults } from "../src/command-results.js";
import { diffEventStreams } from "../src/normalise-events.js";
import type { ScenarioOutcome } from "../src/run-scenario.js";
import { sideBySideBeforeAll, streamDifferences } from "../src/side-by-side.js";

const EDGE_STEPS = [
  "parallel",
  "tool-error",
  "unknown-tool",
  "secret-tool",
  "invalid-input",
  "long-answer",
  "truncated",
  "rate-limited",
  "context-exceeded",
  "after-failures",
  "in-flight",
  "closed",
];
const DENIED_OUTPUT = JSON.stringify({
  error: {
    code: "invalid_tool_call",
    message: "Paperclip rejected this semantic tool call",
    retryable: false,
  },
});

const payloadOf = (outcome: ScenarioOutcome, type: string) =>
  outcome.events
    .filter((event) => event.eventType === type)
    .map((event) => event.payload as Record<string, unknown>);

/** Every step went as the server expects, whichever runner ran it. */
function expectEdgesWorked(outcome: ScenarioOutcome): void {
  const failed = [...outcome.steps.values()].filter((step) => step.error !== undefined);
  expect(failed, outcome.transcript.slice(-4_000)).toEqual([]);
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  for (const step of EDGE_STEPS) expect(outcome.steps.has(step), `step ${step}`).toBe(true);
  for (const step of ["parallel", "tool-error", "unknown-tool", "secret-tool", "invalid-input"]) {
    expect(outcome.steps.get(step), step).toMatchObject({ status: "completed", modelRequests: 2 });
  }
  expect(outcome.steps.get("long-answer")?.status).toBe("completed");
  for (const step of ["truncated", "rate-limited", "context-exceeded"]) {
    expect(outcome.steps.get(step)?.status, step).toBe("failed");
  }
  expect(outcome.steps.get("after-failures")?.status).toBe("completed");
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers, "the close stopped the runner and Codex").toEqual([]);
}

/** The server's handler got the calls the model made that the run can take, and only those. */
function expectToolCalls(outcome: ScenarioOutcome): void {
  expect(outcome.toolCalls.map((call) => call.arguments)).toEqual([
    { body: "first of two" },
    { body: "second of two" },
    { body: REFUSED_TOOL_BODY },
    // The credential the model wrote never reaches the control plane.
    { body: "the key is [REDACTED]" },
  ]);
  const outputs = Object.values(outcome.modelToolOutputs);
  expect(outputs).toContain('{"refused":true}');
  expect(outputs).toContain("unsupported call: delete_everything");
  expect(outputs).toContain(DENIED_OUTPUT);
  const refused = payloadOf(outcome, "semantic_tool.result").filter(
    (payload) => (payload.semantic_tool as { outcome?: string }).outcome === "failed",
  );
  expect(refused).toHaveLength(1);
  expect(payloadOf(outcome, "harness.diagnostic").filter((p) => p.code === "semantic_tool_denied")).toEqual([
    {
      code: "semantic_tool_denied",
      provider: "codex",
      callId: expect.any(String),
      operationId: "report_progress",
      message: "provider arguments for report_progress failed JSON Schema validation",
      paperclipExecuted: false,
    },
  ]);
}

/** Text over the bound is cut to 4000 characters, marked, and nothing secret is committed. */
function expectBoundedAndRedacted(outcome: ScenarioOutcome): void {
  expect(outcome.answer).toHaveLength(4000);
  expect(outcome.answer?.endsWith("…[truncated]")).toBe(true);
  const committed = JSON.stringify(outcome.events);
  expect(committed).not.toContain(SECRET_OPENAI);
  expect(committed).not.toContain(SECRET_GITHUB);
  expect(outcome.transcript).not.toContain(SECRET_GITHUB);
}

/** The in-flight turn was stopped by the close: turn.stop, drain (nothing retained), suspend. */
function expectClosedInFlight(outcome: ScenarioOutcome): void {
  const tail = outcome.commands.slice(-3);
  expect(tail.map((command) => [command.type, command.status])).toEqual([
    ["turn.stop", "completed"],
    ["runner.drain", "completed"],
    ["runner.suspend", "completed"],
  ]);
  expect(tail[0]?.result).toMatchObject({
    status: "stopped",
    reason: "turn.stop",
    providerExitConfirmed: true,
  });
  expect(tail[1]?.result).toMatchObject({ retainedEventsDrained: true });
}

describe("parallel and refused tool calls, secrets, long text, model failures and a close mid-turn, real Codex: upstream's runner and ours", {
  timeout: 300_000,
}, () => {
  const outcomes = sideBySideBeforeAll("edges");

  it("upstream's runner takes every step (the reference)", () => {
    const { upstream } = outcomes();
    expectEdgesWorked(upstream);
    expectToolCalls(upstream);
    expectBoundedAndRedacted(upstream);
    expectClosedInFlight(upstream);
  });

  it("ours takes the same steps with the same tool calls, bounds, redaction and close", () => {
    const { ours } = outcomes();
    expectEdgesWorked(ours);
    expectToolCalls(ours);
    expectBoundedAndRedacted(ours);
    expectClosedInFlight(ours);
    expect(ours.modelToolOutputs).toEqual(outcomes().upstream.modelToolOutputs);
  });

  it("ours commits the same normalised stream, but for the listed differences", () => {
    const { upstream, ours } = outcomes();
    const differences = streamDifferences({ upstream, ours });
    expect(unlistedDifferences(differences, ACCEPTED_EDGE_DIFFERENCES), differences.join("\n")).toEqual([]);
  });

  it("ours answers every command the server queued with upstream's results", () => {
    const { upstream, ours } = outcomes();
    expect(diffEventStreams(commandResults(upstream), commandResults(ours))).toEqual([]);
  });
});
