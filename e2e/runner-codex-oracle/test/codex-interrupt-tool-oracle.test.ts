import { describe, expect, it } from "vitest";
import { codexCancelledToolCall, withoutCodexCancelledToolCall } from "../src/codex-cancelled-tool-call.js";
import type { ScenarioOutcome } from "../src/run-scenario.js";
import { type SideBySide, sideBySideBeforeAll, streamDifferences } from "../src/side-by-side.js";

/** The turn ended interrupted with its tool call settled as failed, and the next turn completed. */
function expectInterruptSettledTheCall(outcome: ScenarioOutcome): void {
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  expect(outcome.steps.get("interrupt-tool"), outcome.transcript.slice(-4_000)).toMatchObject({
    status: "interrupted",
  });
  expect(outcome.steps.get("after-interrupt")?.status).toBe("completed");
  const types = outcome.events.map((event) => event.eventType);
  const started = types.indexOf("tool.execution.started");
  const input = types.indexOf("semantic_tool.input");
  const result = types.indexOf("semantic_tool.result");
  const interrupted = types.indexOf("turn.interrupted");
  expect(input).toBeGreaterThan(0);
  // The runner settles the call before the turn's terminal.
  expect(result).toBeGreaterThan(input);
  expect(result).toBeLessThan(interrupted);
  expect(outcome.events[result]?.payload).toMatchObject({ semantic_tool: { outcome: "failed" } });
  // Codex, interrupted, never completes the call, except for its own record of cancelling it
  // (`codexCancelledToolCall`): then once, failed, for the held call, before the turn's terminal.
  expect(types.filter((type) => type === "tool.execution.completed").length).toBeLessThanOrEqual(1);
  const cancelled = codexCancelledToolCall(outcome);
  if (cancelled !== undefined) {
    const executionId = (outcome.events[started]?.payload as { executionId?: string } | undefined)
      ?.executionId;
    expect(executionId).toEqual(expect.any(String));
    expect(cancelled.payload).toMatchObject({
      executionId,
      transport: "dynamic",
      status: "failed",
      output: "",
    });
    expect(outcome.events.indexOf(cancelled)).toBeGreaterThan(input);
    expect(outcome.events.indexOf(cancelled)).toBeLessThan(interrupted);
  }
  expect(outcome.schemaIssues).toEqual([]);
}

/**
 * The two committed streams compared as they are when both runners' Codex processes did the same
 * (recorded the cancelled call or not); when they did not, without that one record.
 */
function cancellationAwareDifferences({ upstream, ours }: SideBySide): string[] {
  const bothAlike =
    (codexCancelledToolCall(upstream) === undefined) === (codexCancelledToolCall(ours) === undefined);
  return bothAlike
    ? streamDifferences({ upstream, ours })
    : streamDifferences({
        upstream: withoutCodexCancelledToolCall(upstream),
        ours: withoutCodexCancelledToolCall(ours),
      });
}

/** What the runner answered to the server's tool result that arrived after the interrupt. */
const lateResult = (outcome: ScenarioOutcome) =>
  outcome.commands.find((command) => command.type === "semantic_tool.result");

describe("a turn interrupted with a tool call pending, the server answering after it, real Codex: upstream's runner and ours", {
  timeout: 300_000,
}, () => {
  const outcomes = sideBySideBeforeAll("interrupt-tool");

  it("upstream's runner settles the call as failed, then fails the late result, and the server's close cannot prove suspension", () => {
    const { upstream } = outcomes();
    expectInterruptSettledTheCall(upstream);
    expect(lateResult(upstream)).toMatchObject({
      status: "failed",
      result: {
        code: "command_execution_failed",
        message: "semantic tool result was rejected: legacy settled tool result cannot be replayed",
      },
    });
    expect(upstream.steps.get("closed")?.error).toMatch(/runner did not durably suspend before checkpoint/);
  });

  it("ours commits the same stream, takes the late result as settled after the turn, and closes", () => {
    const { upstream, ours } = outcomes();
    expectInterruptSettledTheCall(ours);
    expect(cancellationAwareDifferences({ upstream, ours })).toEqual([]);
    expect(lateResult(ours)).toMatchObject({
      status: "completed",
      result: { status: "settled_after_turn" },
    });
    expect(ours.steps.get("closed"), ours.transcript.slice(-4_000)).not.toHaveProperty("error");
    expect(ours.commands.slice(-2).map((command) => [command.type, command.status])).toEqual([
      ["runner.drain", "completed"],
      ["runner.suspend", "completed"],
    ]);
    expect(ours.leftovers).toEqual([]);
  });
});
