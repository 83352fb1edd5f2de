import { toolchainCache } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import {
  type CommittedEvent,
  closeSteps,
  type DriverResult,
  driveCodexRunner,
  openSteps,
  type Step,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";

// Differential: upstream's Rust runner and ours on the same inputs, the real control plane and the
// fake app-server, compared on when held startup facts are committed around the server's drains.
const toolchain = serverToolchainForFile();
const upstreamRunner = (): string => toolchainCache("the startup release differential", "upstream-runnerd");

/** The events whose order this compares: the session's, the startup facts, the turn's acceptance. */
const ORDERED = new Set(["session.started", "session.resumed", "runner.reconciled", "turn.accepted"]);

function orderedFacts(events: readonly CommittedEvent[]): string[] {
  return events
    .filter((event) => ORDERED.has(event.eventType) || event.eventType === "harness.diagnostic")
    .map((event) =>
      event.eventType === "harness.diagnostic" ? `diagnostic:${String(event.payload.code)}` : event.eventType,
    );
}

/** Each drain's answer, by command id. */
function drainAnswers(result: DriverResult): Record<string, unknown> {
  return Object.fromEntries(
    result.commands
      .filter((command) => command.type === "runner.drain")
      .map((command) => [command.commandId, command.result.result?.retainedEventsDrained]),
  );
}

async function bothRunners(steps: (work: string) => Step[]): Promise<[DriverResult, DriverResult]> {
  const ours = await withWork((work) => driveCodexRunner(toolchain(), work, steps(work)));
  const upstream = await withWork((work) =>
    driveCodexRunner(toolchain(), work, steps(work), { runnerBin: upstreamRunner() }),
  );
  for (const result of [ours, upstream]) {
    expect(result.failure).toBeNull();
    expect(result.invalid).toEqual([]);
  }
  return [ours, upstream];
}

const drain = (id: string): Step[] => [
  { op: "queue", type: "runner.drain", id },
  { op: "command", id },
];
const turnThenClose: Step[] = [
  { op: "queue", type: "turn.start", payload: { text: "first" }, id: "turn-1" },
  { op: "event", type: "run.terminal" },
  ...closeSteps,
];
const STARTUP_FACTS = ["diagnostic:provider_startup_ownership", "diagnostic:provider_startup_ownership"];

describe("held startup facts around the server's drains, against upstream's runner", {
  timeout: 120_000,
}, () => {
  it("keeps a session.open's facts through the first drain, until after the next turn's acceptance", async () => {
    const [ours, upstream] = await bothRunners((work) => [
      ...openSteps(work),
      ...drain("drain-1"),
      ...turnThenClose,
    ]);
    expect(orderedFacts(ours.committed)).toEqual(["session.started", "turn.accepted", ...STARTUP_FACTS]);
    expect(orderedFacts(ours.committed)).toEqual(orderedFacts(upstream.committed));
    expect(drainAnswers(ours)).toEqual(drainAnswers(upstream));
  });

  it("commits a session.open's facts on the second drain, a snapshot between them, before the turn", async () => {
    const steps = (work: string): Step[] => [
      ...openSteps(work),
      ...drain("drain-1"),
      { op: "queue", type: "session.snapshot", id: "snapshot" },
      { op: "command", id: "snapshot" },
      ...drain("drain-2"),
      ...turnThenClose,
    ];
    const [ours, upstream] = await bothRunners(steps);
    expect(orderedFacts(ours.committed)).toEqual(["session.started", ...STARTUP_FACTS, "turn.accepted"]);
    expect(orderedFacts(ours.committed)).toEqual(orderedFacts(upstream.committed));
    // The second drain answers before it commits them: nothing retained is claimed drained.
    expect(drainAnswers(ours)).toMatchObject({ "drain-1": false, "drain-2": false });
    expect(drainAnswers(ours)).toEqual(drainAnswers(upstream));
  });

  it("commits a resume's facts on the drain after the resume probe, without Codex's replayed usage", async () => {
    const steps = (work: string): Step[] => [
      ...openSteps(work),
      ...turnThenClose,
      // Queued while no runner runs: the next run's runner resumes for it, before the resume probe.
      { op: "queue", type: "session.snapshot", id: "queued-snapshot" },
      { op: "restart" },
      { op: "command", id: "queued-snapshot" },
      ...drain("resume-probe"),
      ...drain("close-drain"),
      { op: "event", type: "session.resumed" },
      ...drain("close-drain-again"),
      { op: "queue", type: "runner.suspend", id: "suspend-2" },
      { op: "exit" },
    ];
    const [ours, upstream] = await bothRunners(steps);
    const facts = orderedFacts(ours.committed);
    expect(facts.slice(facts.indexOf("runner.reconciled"))).toEqual([
      "runner.reconciled",
      ...STARTUP_FACTS,
      "session.resumed",
    ]);
    expect(facts).toEqual(orderedFacts(upstream.committed));
    expect(drainAnswers(ours)).toMatchObject({ "resume-probe": false, "close-drain": false });
    expect(drainAnswers(ours)).toEqual(drainAnswers(upstream));
  });
});
