import { describe, expect, it } from "vitest";
import {
  carriedFacts,
  expectSameAsUpstream,
  FACTS_AFTER_A_RELAUNCH_AND_A_DRAIN,
  FACTS_AFTER_A_RELAUNCH_AND_A_TURN,
  FACTS_AFTER_TWO_RELAUNCHES_AND_A_TURN,
  OPEN_FACTS,
  PROVIDER_STATE,
  probeFacts,
} from "./helpers/carried-facts.js";
import { closeSteps, openSteps, type Step, serverToolchainForFile } from "./helpers/codex-durable.js";
import {
  bothRunners,
  commandOutcome,
  drain,
  drainAnswers,
  orderedFacts,
  turnThenClose,
} from "./helpers/startup-release-differential.js";

// Differential: upstream's Rust runner and ours (`helpers/startup-release-differential.ts`) on held
// startup facts a suspend carries to the next run (`codex-provider-state.json` `pendingEvents`):
// what each suspend saved, and when the next runs commit them.
const toolchain = serverToolchainForFile();

const suspendAndSnapshot = (id: string): Step[] => [
  { op: "queue", type: "runner.suspend", id },
  { op: "exit" },
  { op: "snapshotFile", path: PROVIDER_STATE },
];

/** A session.open's facts held through the first drain, then a suspend: the next run resumes on its probe. */
const suspendBehindFirstDrain = (work: string): Step[] => [
  ...openSteps(work),
  ...drain("drain-1"),
  ...suspendAndSnapshot("suspend-1"),
  { op: "restart" },
  ...drain("resume-probe"),
];
describe("held startup facts carried across a suspend, against upstream's runner", {
  timeout: 120_000,
}, () => {
  it("carries facts a suspend found held to the next run, committed after its first turn's acceptance", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...suspendBehindFirstDrain(work),
      ...turnThenClose,
      { op: "snapshotFile", path: PROVIDER_STATE },
    ]);
    expectSameAsUpstream(ours, upstream, {
      committed: FACTS_AFTER_A_RELAUNCH_AND_A_TURN,
      carried: [{ pending: OPEN_FACTS, next: 3 }, { pending: [] }],
    });
  });

  it("commits carried facts after the answer of the next run's later drain, when no turn comes", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...suspendBehindFirstDrain(work),
      ...drain("close-drain"),
      { op: "event", type: "session.resumed" },
      ...closeSteps,
      { op: "snapshotFile", path: PROVIDER_STATE },
    ]);
    expect(drainAnswers(ours)).toMatchObject({ "resume-probe": false, "close-drain": false });
    expectSameAsUpstream(ours, upstream, {
      committed: FACTS_AFTER_A_RELAUNCH_AND_A_DRAIN,
      carried: [{ pending: OPEN_FACTS, next: 3 }, { pending: [] }],
    });
  });

  it("carries them through a second suspend right after the probe, then commits each once after a turn", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...suspendBehindFirstDrain(work),
      ...suspendAndSnapshot("suspend-2"),
      { op: "restart" },
      ...drain("second-probe"),
      ...turnThenClose,
      { op: "snapshotFile", path: PROVIDER_STATE },
    ]);
    expectSameAsUpstream(ours, upstream, {
      committed: FACTS_AFTER_TWO_RELAUNCHES_AND_A_TURN,
      carried: [
        { pending: OPEN_FACTS, next: 3 },
        { pending: [...OPEN_FACTS, ...probeFacts("resume-probe", 3)], next: 6 },
        { pending: [] },
      ],
    });
  });

  it("carries them on a runner.shutdown too, a drain or none before it", async () => {
    for (const before of [[], drain("drain-1")]) {
      const [ours, upstream] = await bothRunners(toolchain(), (work) => [
        ...openSteps(work),
        ...before,
        { op: "queue", type: "runner.shutdown", id: "shutdown" },
        { op: "exit" },
        { op: "snapshotFile", path: PROVIDER_STATE },
      ]);
      expect(orderedFacts(ours.committed)).toEqual(["session.started"]);
      expect(orderedFacts(ours.committed)).toEqual(orderedFacts(upstream.committed));
      expect(carriedFacts(ours)).toEqual([{ pending: OPEN_FACTS, next: 3 }]);
      expect(carriedFacts(ours)).toEqual(carriedFacts(upstream));
      expect(commandOutcome(ours, "shutdown")).toEqual({ status: "completed" });
      expect(commandOutcome(ours, "shutdown")).toEqual(commandOutcome(upstream, "shutdown"));
    }
  });
});
