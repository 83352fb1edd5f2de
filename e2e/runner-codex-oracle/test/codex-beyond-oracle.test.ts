import { describe, expect, it } from "vitest";
import {
  LONG_UNICODE_DELTAS,
  THROWN_TOOL_BODY,
  UNICODE_DELTAS,
  // @ts-expect-error the scenario is a plain ES module shared with the Node 24 driver
} from "../driver/beyond-scenario.mjs";
// @ts-expect-error the scenario is a plain ES module shared with the Node 24 driver
import { REFUSED_TOOL_BODY } from "../driver/edge-scenario.mjs";
import { ACCEPTED_BEYOND_DIFFERENCES } from "../src/accepted-differences.js";
import type { CommittedEvent, ScenarioOutcome } from "../src/run-scenario.js";
import {
  expectSameCommandResults,
  expectSameStreams,
  type SideBySide,
  sideBySideBeforeAll,
  untilResumed,
} from "../src/side-by-side.js";

const COMPLETED_STEPS = [
  "parallel-three",
  "unicode",
  "reasoning-only",
  "empty-answer",
  "after-bad-request",
  "after-steer-interrupt",
];
const FAILED_STEPS = ["unauthorized", "bad-request", "retry-after"];
const TRUNCATION_SUFFIX = "…[truncated]";

/** No half of a surrogate pair on its own (in `u` mode a class of surrogates matches lone ones only). */
const wellFormed = (text: string) => !/[\uD800-\uDFFF]/u.test(text);

const payloads = (events: readonly CommittedEvent[], type: string) =>
  events.filter((event) => event.eventType === type).map((event) => event.payload as Record<string, unknown>);

/** Every step up to the resume went as the server expects, whichever runner ran it. */
function expectBeyondWorked(outcome: ScenarioOutcome): void {
  const failed = [...outcome.steps.values()].filter(
    (step) => step.error !== undefined && step.step !== "long-unicode",
  );
  expect(failed, outcome.transcript.slice(-4_000)).toEqual([]);
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  for (const step of COMPLETED_STEPS) expect(outcome.steps.get(step)?.status, step).toBe("completed");
  for (const step of FAILED_STEPS) expect(outcome.steps.get(step)?.status, step).toBe("failed");
  expect(outcome.steps.get("parallel-three")).toMatchObject({ modelRequests: 2 });
  // Codex retries the 401 once (this scenario allows one retry), not the 400 nor the 429.
  expect(outcome.steps.get("unauthorized")).toMatchObject({ modelRequests: 2 });
  expect(outcome.steps.get("retry-after")).toMatchObject({ modelRequests: 1 });
  expect(outcome.steps.get("snapshot-after-failure")).toMatchObject({
    sameThread: true,
    statuses: ["failed"],
  });
  expect(outcome.steps.get("steer-after-interrupt")?.status).toBe("interrupted");
  expect(outcome.steps.get("steer-after-interrupt:sent")).toMatchObject({
    interrupt: { accepted: true },
    steer: { accepted: false },
  });
  expect(outcome.steps.get("terminated")).toMatchObject({
    sameThread: true,
    statuses: ["failed"],
    oldProviderAlive: false,
  });
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers, "the close stopped the runner and Codex").toEqual([]);
}

/** The server's handler saw the three parallel calls; one was answered, two failed, and the model was told so. */
function expectParallelCalls(outcome: ScenarioOutcome): void {
  expect(outcome.toolCalls.map((call) => call.arguments)).toEqual([
    { body: "first of three" },
    { body: REFUSED_TOOL_BODY },
    { body: THROWN_TOOL_BODY },
  ]);
  const outcomes = payloads(outcome.events, "semantic_tool.result").map(
    (payload) => (payload.semantic_tool as { outcome?: string }).outcome,
  );
  expect(outcomes).toEqual(["succeeded", "failed", "failed"]);
  expect(Object.keys(outcome.modelToolOutputs)).toHaveLength(3);
}

/** The multi-byte answer came through its deltas whole and in order; the completed item is bounded. */
function expectUnicodeStreamed(outcome: ScenarioOutcome): void {
  const streamed = payloads(outcome.events, "item.delta")
    .map((payload) => payload.text as string)
    .join("");
  expect(streamed).toContain(UNICODE_DELTAS.join(""));
  const completed =
    payloads(outcome.events, "item.completed")
      .map((payload) => String(payload.text))
      .find((text) => text.startsWith(UNICODE_DELTAS[0])) ?? "";
  expect(completed.endsWith(TRUNCATION_SUFFIX)).toBe(true);
  expect(wellFormed(completed)).toBe(true);
  expect(UNICODE_DELTAS.join("").startsWith(completed.slice(0, -TRUNCATION_SUFFIX.length))).toBe(true);
}

/** The SIGTERMed runner's killed turn was reconciled on the resumed thread, as after a SIGKILL. */
function expectTerminatedResumed(outcome: ScenarioOutcome): void {
  const types = untilResumed(outcome.events).map((event) => event.eventType);
  expect(types.slice(-3)).toEqual(["session.resumed", "session.reconciled", "turn.failed"]);
  expect(untilResumed(outcome.events).at(-1)?.payload).toMatchObject({ providerTerminalObserved: false });
}

/** Up to the resume: the streams and the commands' results, the work directory and the stub's port masked. */
const untilTheResume = ({ upstream, ours }: SideBySide): SideBySide => ({
  upstream: { ...upstream, events: untilResumed(upstream.events) },
  ours: { ...ours, events: untilResumed(ours.events) },
});

describe("three calls answered three ways, multi-byte deltas, empty answers, 401/400/429, a steer behind an interrupt, SIGTERM and an answer over 1 MiB, real Codex: upstream's runner and ours", {
  timeout: 300_000,
}, () => {
  const outcomes = sideBySideBeforeAll("beyond");

  it("upstream's runner takes every step up to the resume after SIGTERM, then cannot start the next turn (the replayed usage)", () => {
    const { upstream } = outcomes();
    expectBeyondWorked(upstream);
    expectParallelCalls(upstream);
    expectUnicodeStreamed(upstream);
    expectTerminatedResumed(upstream);
    expect(upstream.steps.get("long-unicode")?.error).toMatch(/provider turn identity/);
  });

  it("ours takes the same steps, commits the same normalised stream up to the resume, and streams the answer over 1 MiB after it", () => {
    const { ours } = outcomes();
    expectBeyondWorked(ours);
    expectParallelCalls(ours);
    expectUnicodeStreamed(ours);
    expectTerminatedResumed(ours);
    expect(ours.modelToolOutputs).toEqual(outcomes().upstream.modelToolOutputs);
    expectSameStreams(untilTheResume(outcomes()), ACCEPTED_BEYOND_DIFFERENCES);
    expect(ours.steps.get("long-unicode"), ours.transcript.slice(-4_000)).toMatchObject({
      status: "completed",
    });
    expect(Buffer.byteLength(LONG_UNICODE_DELTAS.join(""))).toBeGreaterThan(1024 * 1024);
    const after = ours.events.slice(untilResumed(ours.events).length);
    // Every delta committed, each bounded (as upstream's runner bounds text: characters and UTF-8 bytes).
    const deltas = payloads(after, "item.delta").map((payload) => payload.text as string);
    expect(deltas).toHaveLength(LONG_UNICODE_DELTAS.length);
    for (const text of deltas) {
      expect(wellFormed(text)).toBe(true);
      expect(Buffer.byteLength(text.slice(0, -TRUNCATION_SUFFIX.length))).toBeLessThanOrEqual(4097);
    }
    expect(payloads(after, "turn.completed")).toHaveLength(1);
  });

  it("ours answers every command the server queued as upstream's, but for the listed differences", () => {
    expectSameCommandResults(outcomes(), ACCEPTED_BEYOND_DIFFERENCES);
  });
});
