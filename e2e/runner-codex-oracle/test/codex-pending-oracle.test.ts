import { describe, expect, it } from "vitest";
import { unlistedDifferences } from "../src/accepted-differences.js";
import { diffEventStreams, normaliseEvents } from "../src/normalise-events.js";
import type { ScenarioOutcome, StepRecord } from "../src/run-scenario.js";
import { expectSameCommandResults, maskedOutcomes, sideBySideBeforeAll } from "../src/side-by-side.js";
import { suspendedTurnResume } from "../src/suspended-turn-resume.js";

/** The server's transport, closing after a raw suspend, or with a tool call it never settled. */
const CLOSE_UNPROVEN = "provider_transport_failed: runner did not durably suspend before checkpoint";

const step = (outcome: ScenarioOutcome, name: string): StepRecord => {
  const record = outcome.steps.get(name);
  if (record === undefined) throw new Error(`${name} was not reached\n${outcome.transcript.slice(-4_000)}`);
  return record;
};

/** The events up to the next run's `runner.reconciled`, inclusive. */
const untilReconciled = (outcome: ScenarioOutcome) =>
  outcome.events.slice(0, outcome.events.findIndex((event) => event.eventType === "runner.reconciled") + 1);

/** The steps both runners take alike, up to the next run's turn. */
function expectPending(outcome: ScenarioOutcome): void {
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  expect(step(outcome, "plain").status).toBe("completed");
  // A snapshot and a drain while the server holds a call answer at once and stop nothing; the turn goes on.
  expect(step(outcome, "drain-pending:snapshot")).toMatchObject({
    status: "completed",
    result: { status: "turn_active" },
  });
  expect(step(outcome, "drain-pending:drain")).toMatchObject({
    status: "completed",
    result: { status: "completed", retainedEventsDrained: true },
    runnerAlive: true,
    codexAlive: true,
  });
  expect(step(outcome, "drain-pending")).toMatchObject({ status: "completed", modelRequests: 2 });
  // A suspend while it holds one ends the runner and Codex; the server's close cannot prove it.
  expect(step(outcome, "suspend-pending")).toMatchObject({
    status: "completed",
    result: { status: "completed" },
    runnerAlive: false,
    codexAlive: false,
  });
  expect(step(outcome, "first-close").error).toBe(CLOSE_UNPROVEN);
  expect(step(outcome, "reopened").sameThread).toBe(true);
  expect(step(outcome, "closed").error).toBe(CLOSE_UNPROVEN);
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers, "the suspend and the close stopped the runner and Codex").toEqual([]);
}

describe("runner.drain and runner.suspend while the server holds a tool call, the next run resuming, real Codex: upstream's runner and ours", {
  timeout: 300_000,
}, () => {
  const outcomes = sideBySideBeforeAll("pending");

  it("upstream's runner drains, suspends, resumes and reconciles the lost turn, then fails the next turn on Codex's replayed usage (the reference)", () => {
    const { upstream } = outcomes();
    expectPending(upstream);
    expect(step(upstream, "resumed").error).toBe("runnerd did not report the provider turn identity");
    const mismatch = upstream.events.filter(
      (event) => (event.payload as { code?: unknown }).code === "turn_binding_mismatch",
    );
    expect(mismatch.map((event) => event.eventType)).toEqual(["harness.diagnostic", "turn.failed"]);
  });

  it("ours takes the same steps, commits the same stream up to the resume, and completes the next turn", () => {
    const { upstream, ours } = maskedOutcomes(outcomes());
    expectPending(ours);
    expect(step(ours, "resumed")).toMatchObject({ status: "completed", modelRequests: 1 });
    const differences = diffEventStreams(
      normaliseEvents(untilReconciled(upstream)),
      normaliseEvents(untilReconciled(ours)),
    );
    expect(unlistedDifferences(differences, {}), differences.join("\n")).toEqual([]);
  });

  it("ours commits the resume's facts and the lost turn's reconciliation before the next turn's acceptance, upstream's after it (open)", () => {
    const { upstream, ours } = maskedOutcomes(outcomes());
    const reference = suspendedTurnResume(upstream);
    const candidate = suspendedTurnResume(ours);
    expect(reference?.[0]?.eventType).toBe("turn.accepted");
    expect(reference?.map((event) => event.eventType)).toEqual([
      "turn.accepted",
      "harness.diagnostic",
      "harness.diagnostic",
      "session.resumed",
      "semantic_tool.result",
      "session.reconciled",
      "turn.failed",
    ]);
    // Ours: the same events, its acceptance last (moved first by `suspendedTurnResume`).
    expect(ours.events[ours.events.indexOf(candidate?.[0] as never) - 1]?.eventType).toBe("turn.failed");
    const differences = diffEventStreams(normaliseEvents(reference ?? []), normaliseEvents(candidate ?? []));
    expect(differences).toEqual([]);
  });

  it("ours answers every command the server queued as upstream's", () => {
    expectSameCommandResults(outcomes());
  });
});
