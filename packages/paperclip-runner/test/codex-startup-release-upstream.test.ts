import { describe, expect, it } from "vitest";
import { openSteps, type Step, serverToolchainForFile } from "./helpers/codex-durable.js";
import {
  bothRunners,
  drain,
  drainAnswers,
  orderedFacts,
  STARTUP_FACTS,
  turnThenClose,
} from "./helpers/startup-release-differential.js";

// Differential: upstream's Rust runner and ours (`helpers/startup-release-differential.ts`) on when
// held startup facts are committed around the server's drains, within one run.
const toolchain = serverToolchainForFile();

describe("held startup facts around the server's drains, against upstream's runner", {
  timeout: 120_000,
}, () => {
  it("keeps a session.open's facts through the first drain, until after the next turn's acceptance", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
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
    const [ours, upstream] = await bothRunners(toolchain(), steps);
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
    const [ours, upstream] = await bothRunners(toolchain(), steps);
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
