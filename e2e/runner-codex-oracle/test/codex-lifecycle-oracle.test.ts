import { describe, expect, it } from "vitest";
import { unlistedDifferences } from "../src/accepted-differences.js";
import { withResumeNotesAfterAcceptance } from "../src/codex-resume-notes.js";
import { commandResults } from "../src/command-results.js";
import { diffEventStreams } from "../src/normalise-events.js";
import type { CommittedEvent, ScenarioOutcome, StepRecord } from "../src/run-scenario.js";
import { expectSameStreams, type SideBySide, sideBySideBeforeAll } from "../src/side-by-side.js";

/** The server's transport, closing after a raw suspend: the runner it would suspend has already left. */
const CLOSE_AFTER_SUSPEND = "provider_transport_failed: runner did not durably suspend before checkpoint";

/**
 * The events the next run's runner committed between its reconciliation and the next turn's
 * `turn.accepted`, raw (Codex's resume notes not moved): the snapshot queued while no runner ran
 * resumed it, and the resume probe's drain and the snapshots after it must release none of the
 * facts that resume held (its startup facts, `session.resumed`). Codex's resume notes are left
 * out: both runners' snapshots show their goal revision was not applied, but upstream's may
 * commit them as they arrive (`src/codex-resume-notes.ts`).
 */
function releasedBeforeAcceptance(outcome: ScenarioOutcome): CommittedEvent[] {
  const reconciled = outcome.events.findIndex((event) => event.eventType === "runner.reconciled");
  const accepted = outcome.events.findIndex(
    (event, index) => index > reconciled && event.eventType === "turn.accepted",
  );
  return outcome.events
    .slice(reconciled + 1, accepted)
    .filter(
      (event) =>
        event.eventType === "session.resumed" ||
        (event.payload as { code?: string }).code === "provider_startup_ownership",
    );
}

/** The result of the next run's first drain (the server's resume probe). */
function resumeProbeResult(outcome: ScenarioOutcome): unknown {
  const suspend = outcome.commands.findIndex((command) => command.type === "runner.suspend");
  return outcome.commands.slice(suspend + 1).find((command) => command.type === "runner.drain")?.result;
}

/** The goal revisions the snapshots of the next run reported (the one queued while no runner ran first). */
function snapshotRevisionsAfterSuspend(outcome: ScenarioOutcome): unknown[] {
  const suspend = outcome.commands.findIndex((command) => command.type === "runner.suspend");
  return outcome.commands
    .slice(suspend + 1)
    .filter((command) => command.type === "session.snapshot")
    .map((command) => (command.result as { goalRevision?: unknown }).goalRevision);
}

const step = (outcome: ScenarioOutcome, name: string): StepRecord => {
  const record = outcome.steps.get(name);
  if (record === undefined) throw new Error(`${name} was not reached\n${outcome.transcript.slice(-4_000)}`);
  return record;
};

/** The server-read `runner-state.json` fields a suspend left (`lifecycle-scenario.mjs`), the terminal fence aside. */
function suspendedState(outcome: ScenarioOutcome, name: string): Record<string, unknown> {
  const { pendingTerminalDelivery: _fence, ...state } = step(outcome, name).state as Record<string, unknown>;
  return state;
}

/** A suspend answered, the runner and Codex gone, the state file suspended with everything acknowledged. */
function expectSuspended(outcome: ScenarioOutcome, name: string): void {
  expect(step(outcome, name), name).toMatchObject({
    status: "completed",
    result: { status: "completed" },
    runnerAlive: false,
    codexAlive: false,
  });
  const state = suspendedState(outcome, name);
  expect(state).toMatchObject({
    schema: "paperclip.runner.durable.state.v1",
    lifecycle: "suspended",
    outbox: [],
    pendingProviderCleanup: null,
    recoverableFailure: null,
  });
  expect(state.ackedSourceSeq).toBe((state.nextSourceSeq as number) - 1);
}

/** Every step went as the server expects, whichever runner ran it. */
function expectLifecycle(outcome: ScenarioOutcome): void {
  const failed = [...outcome.steps.values()].filter(
    (record) => record.error !== undefined && record.error !== CLOSE_AFTER_SUSPEND,
  );
  expect(failed, outcome.transcript.slice(-4_000)).toEqual([]);
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  // A drain answers at once, idle or mid-turn, stops nothing and commits nothing; the turns go on.
  for (const name of ["drain-idle", "drain-mid-turn:drain"]) {
    expect(step(outcome, name), name).toMatchObject({
      status: "completed",
      result: { status: "completed", retainedEventsDrained: true },
      runnerAlive: true,
      codexAlive: true,
    });
  }
  expect(step(outcome, "snapshot-after-drain")).toMatchObject({ result: { status: "session_open" } });
  expect(step(outcome, "events-during-drain").count).toBe(0);
  for (const name of ["after-drain", "drain-mid-turn", "resumed"]) {
    expect(step(outcome, name), name).toMatchObject({ status: "completed", modelRequests: 1 });
  }
  // A suspend, idle or mid-turn, ends the runner and Codex; the server's close then cannot prove it.
  expectSuspended(outcome, "suspend-idle");
  expectSuspended(outcome, "suspend-mid-turn");
  expect(step(outcome, "after-suspend")).toMatchObject({ status: "pending" });
  expect(step(outcome, "first-close").error).toBe(CLOSE_AFTER_SUSPEND);
  expect(step(outcome, "closed").error).toBe(CLOSE_AFTER_SUSPEND);
  // The next run resumed the thread; its runner answered the snapshot queued while none ran.
  expect(step(outcome, "reopened").sameThread).toBe(true);
  const snapshots = outcome.commands.filter((command) => command.type === "session.snapshot");
  expect(snapshots.map((command) => command.status)).toEqual(snapshots.map(() => "completed"));
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers, "the suspends stopped the runner and Codex").toEqual([]);
}

describe("runner.drain idle and mid-turn, runner.suspend idle and mid-turn, a command queued while no runner ran, the next run resuming, real Codex: upstream's runner and ours", {
  timeout: 300_000,
}, () => {
  const ran = sideBySideBeforeAll("lifecycle");
  // Upstream's runner commits Codex's resume notifications as they arrive (src/codex-resume-notes.ts).
  const outcomes = (): SideBySide => ({
    upstream: withResumeNotesAfterAcceptance(ran().upstream),
    ours: withResumeNotesAfterAcceptance(ran().ours),
  });

  it("upstream's runner drains without stopping anything and suspends by leaving (the reference)", () => {
    expectLifecycle(outcomes().upstream);
  });

  it("ours does the same and commits the same normalised stream", () => {
    expectLifecycle(outcomes().ours);
    expectSameStreams(outcomes());
  });

  it("both hold the facts of the resume a queued snapshot made through the resume probe's drain and the snapshots, until after the next turn's acceptance", () => {
    const { upstream, ours } = ran();
    for (const outcome of [upstream, ours]) {
      expect(releasedBeforeAcceptance(outcome).map((event) => event.eventType)).toEqual([]);
      // The snapshots answer with the goal revision of the suspended run, not the held one.
      expect(snapshotRevisionsAfterSuspend(outcome)).toEqual([1, 1, 1]);
      // The probe's drain says so.
      expect(resumeProbeResult(outcome)).toEqual({ status: "completed", retainedEventsDrained: false });
    }
  });

  it("ours leaves the same server-read runner-state.json fields after each suspend, its terminal fence cleared", () => {
    const { upstream, ours } = outcomes();
    for (const name of ["suspend-idle", "suspend-mid-turn"]) {
      expect(suspendedState(ours, name), name).toEqual(suspendedState(upstream, name));
      // Upstream clears its fence once Codex is stopped; when its process is ended first, the fence stays.
      expect(step(ours, name).state).toMatchObject({ pendingTerminalDelivery: null });
      const fence = (step(upstream, name).state as { pendingTerminalDelivery: unknown })
        .pendingTerminalDelivery;
      if (fence !== null)
        expect(fence).toMatchObject({ commandType: "runner.suspend", lifecycle: "suspended" });
    }
  });

  it("ours answers every command (drains, suspends, the snapshot queued while no runner ran) as upstream's, but for the differences accepted by pattern", () => {
    const differences = diffEventStreams(
      commandResults(outcomes().upstream),
      commandResults(outcomes().ours),
    );
    expect(unlistedDifferences(differences, {}), differences.join("\n")).toEqual([]);
  });
});
