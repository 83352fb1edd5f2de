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
const PROVIDER_STATE = "runner/codex-provider-state.json";
const suspendAndSnapshot = (id: string): Step[] => [
  { op: "queue", type: "runner.suspend", id },
  { op: "exit" },
  { op: "snapshotFile", path: PROVIDER_STATE },
];

/**
 * The facts each snapshot of the provider state holds for the next run: upstream's record fields,
 * the payload by what it says (pids and launch ids differ per run). `nextProviderEventSeq` beside
 * carried records only: upstream numbers every provider event, ours only the facts it carries.
 */
function carriedFacts(result: DriverResult): unknown[] {
  return result.files
    .filter((file) => file.path === PROVIDER_STATE)
    .map((file) => {
      const state = JSON.parse(file.text ?? "null") as {
        pendingEvents: {
          executorEventId: string;
          eventType: string;
          priority: string;
          payload: Record<string, unknown>;
        }[];
        nextProviderEventSeq: number;
      };
      const pending = state.pendingEvents.map(({ executorEventId, eventType, priority, payload }) => {
        const startup = (payload.startup ?? {}) as Record<string, unknown>;
        const command = (startup.command ?? {}) as Record<string, unknown>;
        return [
          executorEventId,
          eventType,
          priority,
          payload.code,
          startup.phase,
          startup.trigger,
          command.commandId,
        ];
      });
      return pending.length === 0 ? { pending } : { pending, next: state.nextProviderEventSeq };
    });
}

/** A session.open's facts held through the first drain, then a suspend: the next run resumes on its probe. */
const suspendBehindFirstDrain = (work: string): Step[] => [
  ...openSteps(work),
  ...drain("drain-1"),
  ...suspendAndSnapshot("suspend-1"),
  { op: "restart" },
  ...drain("resume-probe"),
];
const OPEN_FACTS = [
  [
    "codex_provider_0000000000000001",
    "harness.diagnostic",
    "p0",
    "provider_startup_ownership",
    "intent",
    "ensure",
    "open",
  ],
  [
    "codex_provider_0000000000000002",
    "harness.diagnostic",
    "p0",
    "provider_startup_ownership",
    "spawned",
    "ensure",
    "open",
  ],
];
const probeFacts = (probe: string, first: number): unknown[][] => [
  [
    `codex_provider_${String(first).padStart(16, "0")}`,
    "harness.diagnostic",
    "p0",
    "provider_startup_ownership",
    "intent",
    "restore",
    probe,
  ],
  [
    `codex_provider_${String(first + 1).padStart(16, "0")}`,
    "harness.diagnostic",
    "p0",
    "provider_startup_ownership",
    "spawned",
    "restore",
    probe,
  ],
  [
    `codex_provider_${String(first + 2).padStart(16, "0")}`,
    "session.resumed",
    "p0",
    undefined,
    undefined,
    undefined,
    undefined,
  ],
];

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

  it("carries facts a suspend found held to the next run, committed after its first turn's acceptance", async () => {
    const [ours, upstream] = await bothRunners((work) => [
      ...suspendBehindFirstDrain(work),
      ...turnThenClose,
      { op: "snapshotFile", path: PROVIDER_STATE },
    ]);
    expect(orderedFacts(ours.committed)).toEqual([
      "session.started",
      "runner.reconciled",
      "turn.accepted",
      ...STARTUP_FACTS,
      ...STARTUP_FACTS,
      "session.resumed",
    ]);
    expect(orderedFacts(ours.committed)).toEqual(orderedFacts(upstream.committed));
    expect(drainAnswers(ours)).toEqual(drainAnswers(upstream));
    expect(carriedFacts(ours)).toEqual([{ pending: OPEN_FACTS, next: 3 }, { pending: [] }]);
    expect(carriedFacts(ours)).toEqual(carriedFacts(upstream));
  });

  it("commits carried facts after the answer of the next run's later drain, when no turn comes", async () => {
    const [ours, upstream] = await bothRunners((work) => [
      ...suspendBehindFirstDrain(work),
      ...drain("close-drain"),
      { op: "event", type: "session.resumed" },
      ...closeSteps,
      { op: "snapshotFile", path: PROVIDER_STATE },
    ]);
    expect(orderedFacts(ours.committed)).toEqual([
      "session.started",
      "runner.reconciled",
      ...STARTUP_FACTS,
      ...STARTUP_FACTS,
      "session.resumed",
    ]);
    expect(orderedFacts(ours.committed)).toEqual(orderedFacts(upstream.committed));
    expect(drainAnswers(ours)).toMatchObject({ "resume-probe": false, "close-drain": false });
    expect(drainAnswers(ours)).toEqual(drainAnswers(upstream));
    expect(carriedFacts(ours)).toEqual([{ pending: OPEN_FACTS, next: 3 }, { pending: [] }]);
    expect(carriedFacts(ours)).toEqual(carriedFacts(upstream));
  });

  it("carries them again on a suspend right behind a later drain, its commit not made yet", async () => {
    const [ours, upstream] = await bothRunners((work) => [
      ...suspendBehindFirstDrain(work),
      // Queued together: the suspend comes right behind the drain's answer, however loaded the machine.
      { op: "queue", type: "runner.drain", id: "close-drain" },
      ...suspendAndSnapshot("suspend-2"),
    ]);
    expect(orderedFacts(ours.committed)).toEqual(["session.started", "runner.reconciled"]);
    expect(orderedFacts(ours.committed)).toEqual(orderedFacts(upstream.committed));
    expect(drainAnswers(ours)).toEqual(drainAnswers(upstream));
    const twice = [...OPEN_FACTS, ...probeFacts("resume-probe", 3)];
    expect(carriedFacts(ours)).toEqual([
      { pending: OPEN_FACTS, next: 3 },
      { pending: twice, next: 6 },
    ]);
    expect(carriedFacts(ours)).toEqual(carriedFacts(upstream));
  });

  it("carries them through a second suspend right after the probe, then commits each once after a turn", async () => {
    const [ours, upstream] = await bothRunners((work) => [
      ...suspendBehindFirstDrain(work),
      ...suspendAndSnapshot("suspend-2"),
      { op: "restart" },
      ...drain("second-probe"),
      ...turnThenClose,
      { op: "snapshotFile", path: PROVIDER_STATE },
    ]);
    expect(orderedFacts(ours.committed)).toEqual([
      "session.started",
      "runner.reconciled",
      "runner.reconciled",
      "turn.accepted",
      ...STARTUP_FACTS,
      ...STARTUP_FACTS,
      "session.resumed",
      ...STARTUP_FACTS,
      "session.resumed",
    ]);
    expect(orderedFacts(ours.committed)).toEqual(orderedFacts(upstream.committed));
    expect(drainAnswers(ours)).toEqual(drainAnswers(upstream));
    expect(carriedFacts(ours)).toEqual([
      { pending: OPEN_FACTS, next: 3 },
      { pending: [...OPEN_FACTS, ...probeFacts("resume-probe", 3)], next: 6 },
      { pending: [] },
    ]);
    expect(carriedFacts(ours)).toEqual(carriedFacts(upstream));
  });
});
