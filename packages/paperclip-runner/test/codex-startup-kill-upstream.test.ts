import { describe, expect, it } from "vitest";
import {
  expectSameAsUpstream,
  FACTS_AFTER_A_RELAUNCH_AND_A_DRAIN,
  FACTS_AFTER_A_RELAUNCH_AND_A_TURN,
  FACTS_AFTER_TWO_RELAUNCHES_AND_A_TURN,
  OPEN_FACTS,
  PROVIDER_STATE,
  probeFacts,
} from "./helpers/carried-facts.js";
import {
  closeSteps,
  type DriverResult,
  expectContiguousOnce,
  openSteps,
  type Step,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import { bothRunners, drain, drainAnswers, turnThenClose } from "./helpers/startup-release-differential.js";

// Differential: upstream's Rust runner and ours (`helpers/startup-release-differential.ts`) on held
// startup facts when the runner is SIGKILLed while it holds them. Upstream saves each held fact in
// `codex-provider-state.json` `pendingEvents` as it comes, so the killed run's facts are there for
// the next run to commit, by the same rule as facts a suspend carried.
const toolchain = serverToolchainForFile();

const snapshot: Step = { op: "snapshotFile", path: PROVIDER_STATE };
const killAndRelaunch = (probe: string): Step[] => [
  { op: "sigkill" },
  snapshot,
  { op: "restart" },
  ...drain(probe),
  snapshot,
];

/** Each startup fact's launch once: a fact committed twice would repeat its launch id and phase. */
function factsOnce(result: DriverResult): boolean {
  const facts = result.committed
    .filter((event) => event.payload.code === "provider_startup_ownership")
    .map((event) => {
      const startup = event.payload.startup as Record<string, unknown>;
      return `${String(startup.launchId)}:${String(startup.phase)}`;
    });
  return expectContiguousOnce(result) && new Set(facts).size === facts.length;
}

describe("held startup facts of a runner SIGKILLed while it holds them, against upstream's runner", {
  timeout: 120_000,
}, () => {
  it("saves a session.open's facts as they come; the relaunch commits them after its first turn's acceptance", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...openSteps(work),
      snapshot,
      ...drain("drain-1"),
      ...killAndRelaunch("resume-probe"),
      ...turnThenClose,
      snapshot,
    ]);
    const both = [...OPEN_FACTS, ...probeFacts("resume-probe", 3)];
    expectSameAsUpstream(ours, upstream, {
      committed: FACTS_AFTER_A_RELAUNCH_AND_A_TURN,
      carried: [
        { pending: OPEN_FACTS, next: 3 },
        { pending: OPEN_FACTS, next: 3 },
        { pending: both, next: 6 },
        { pending: [] },
      ],
    });
    expect(factsOnce(ours)).toBe(true);
  });

  it("commits a killed run's facts after the answer of the relaunch's later drain, when no turn comes", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...openSteps(work),
      ...killAndRelaunch("resume-probe"),
      ...drain("close-drain"),
      { op: "event", type: "session.resumed" },
      snapshot,
      ...closeSteps,
    ]);
    expect(drainAnswers(ours)).toMatchObject({ "resume-probe": false, "close-drain": false });
    expectSameAsUpstream(ours, upstream, {
      committed: FACTS_AFTER_A_RELAUNCH_AND_A_DRAIN,
      carried: [
        { pending: OPEN_FACTS, next: 3 },
        { pending: [...OPEN_FACTS, ...probeFacts("resume-probe", 3)], next: 6 },
        { pending: [] },
      ],
    });
    expect(factsOnce(ours)).toBe(true);
  });

  it("keeps a resume's facts through a kill after its probe; the next relaunch commits each once", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...openSteps(work),
      ...drain("drain-1"),
      ...killAndRelaunch("resume-probe"),
      ...killAndRelaunch("second-probe"),
      ...turnThenClose,
      snapshot,
    ]);
    const once = [...OPEN_FACTS, ...probeFacts("resume-probe", 3)];
    expectSameAsUpstream(ours, upstream, {
      committed: FACTS_AFTER_TWO_RELAUNCHES_AND_A_TURN,
      carried: [
        { pending: OPEN_FACTS, next: 3 },
        { pending: once, next: 6 },
        { pending: once, next: 6 },
        { pending: [...once, ...probeFacts("second-probe", 6)], next: 9 },
        { pending: [] },
      ],
    });
    expect(factsOnce(ours)).toBe(true);
  });
});
