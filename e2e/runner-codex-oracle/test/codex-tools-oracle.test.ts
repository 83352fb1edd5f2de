import { describe, expect, it } from "vitest";
// @ts-expect-error the scenario is a plain ES module shared with the Node 24 driver
import { MCP_STEPS } from "../driver/tools-scenario.mjs";
import { maskWorkDir } from "../src/command-results.js";
import type { ScenarioOutcome } from "../src/run-scenario.js";
import { expectSameCommandResults, expectSameStreams, sideBySideBeforeAll } from "../src/side-by-side.js";

const COMPLETED = [
  ...Object.keys(MCP_STEPS),
  "view-image",
  "shell-patch",
  "rate-limited-headers",
  "rerouted",
];

/** What the model was told of each call, the work directory and Codex's measured wall time masked. */
function toldModel(outcome: ScenarioOutcome): unknown {
  const masked = JSON.stringify(maskWorkDir(outcome.modelToolOutputs));
  return JSON.parse(masked.replace(/Wall time: [\d.]+ seconds/g, "Wall time: <seconds>"));
}

const toolExecutions = (outcome: ScenarioOutcome) =>
  outcome.events
    .filter((event) => event.eventType === "tool.execution.completed")
    .map((event) => event.payload as Record<string, unknown>)
    .map(({ transport, name, namespace, readOnly, status, output }) => ({
      transport,
      name,
      namespace,
      readOnly,
      status,
      output,
    }));

/** Every step went as the server expects, whichever runner ran it. */
function expectTools(outcome: ScenarioOutcome): void {
  const failed = [...outcome.steps.values()].filter((step) => step.error !== undefined);
  expect(failed, outcome.transcript.slice(-4_000)).toEqual([]);
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  for (const step of [...COMPLETED, "after-tools"]) {
    expect(outcome.steps.get(step)?.status, step).toBe("completed");
  }
  expect(outcome.steps.get("cut-by-max-tokens")?.status).toBe("failed");
  // Codex's MCP calls: the missing tool is no call at all; the refused one fails.
  const mcp = { transport: "mcp", namespace: "probe", output: "" };
  expect(toolExecutions(outcome)).toEqual([
    { ...mcp, name: "echo", readOnly: true, status: "completed" },
    { ...mcp, name: "big", readOnly: true, status: "completed" },
    { ...mcp, name: "slow", readOnly: true, status: "completed" },
    { ...mcp, name: "fail", readOnly: false, status: "failed" },
  ]);
  const told = toldModel(outcome) as Record<string, unknown>;
  expect(told.call_stub_1_0).toBe('Wall time: <seconds>\nOutput:\n{"echoed":"hello mcp"}');
  expect(JSON.stringify(told.call_stub_7_0)).toContain("MCP tool call requires approval");
  expect(told.call_stub_9_0).toBe("unsupported call: mcp__probemissing");
  // Codex's shell tool hands `apply_patch` to its patch tool: a fileChange item.
  expect(
    outcome.events.filter((event) => (event.payload as { kind?: unknown }).kind === "fileChange"),
  ).toHaveLength(2);
  expect(outcome.toolCalls, "no call reached the server's handler").toEqual([]);
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers, "the close stopped the runner and Codex").toEqual([]);
}

describe("Codex's own tools: MCP calls (a long output, progress, refused, missing), view_image, apply_patch, rate-limit and reroute headers, an answer cut by max_output_tokens, real Codex: upstream's runner and ours", {
  timeout: 300_000,
}, () => {
  const outcomes = sideBySideBeforeAll("tools");

  it("upstream's runner takes every step (the reference)", () => {
    expectTools(outcomes().upstream);
  });

  it("ours takes the same steps, Codex tells the model the same, and the normalised streams are equal", () => {
    const { upstream, ours } = outcomes();
    expectTools(ours);
    expect(toldModel(ours)).toEqual(toldModel(upstream));
    expectSameStreams(outcomes());
  });

  it("ours answers every command the server queued as upstream's", () => {
    expectSameCommandResults(outcomes());
  });
});
