import { describe, expect, it } from "vitest";
import {
  codexPrepare,
  eventTypes,
  openSteps,
  type Step,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import { bothRunners, drain, drainAnswers } from "./helpers/startup-release-differential.js";

// Differential liveness: the server's close repeats runner.drain until one answers
// retainedEventsDrained:true. After a reopen (a second session.open, or one behind a snapshot before
// it), upstream's runner converges F,F,F,T,T on five drains with nothing between them; ours must too.
const toolchain = serverToolchainForFile();

const fiveDrains: Step[] = [1, 2, 3, 4, 5].flatMap((n) => drain(`drain-${n}`));
const CONVERGED = { "drain-1": false, "drain-2": false, "drain-3": false, "drain-4": true, "drain-5": true };

describe("repeated drains after a reopen converge as upstream's", { timeout: 120_000 }, () => {
  it("run.prepare, session.open (control): F,F,F,T,T on both", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [...openSteps(work), ...fiveDrains]);
    expect(drainAnswers(ours)).toEqual(drainAnswers(upstream));
    expect(eventTypes(ours.committed)).toEqual(eventTypes(upstream.committed));
    expect(drainAnswers(ours)).toEqual(CONVERGED);
  });

  it("run.prepare, session.open, session.open: F,F,F,T,T on both", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...openSteps(work),
      { op: "queue", type: "session.open", payload: { reuse: "same_session" }, id: "open-again" },
      { op: "command", id: "open-again" },
      ...fiveDrains,
    ]);
    expect(drainAnswers(ours)).toEqual(drainAnswers(upstream));
    expect(eventTypes(ours.committed)).toEqual(eventTypes(upstream.committed));
    expect(drainAnswers(ours)).toEqual(CONVERGED);
  });

  it("run.prepare, session.snapshot, session.open: F,F,F,T,T on both", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      { op: "queue", type: "run.prepare", payload: codexPrepare(work), id: "prepare" },
      { op: "command", id: "prepare" },
      { op: "queue", type: "session.snapshot", id: "snapshot" },
      { op: "command", id: "snapshot" },
      { op: "queue", type: "session.open", payload: { reuse: "same_session" }, id: "open" },
      { op: "command", id: "open" },
      ...fiveDrains,
    ]);
    expect(drainAnswers(ours)).toEqual(drainAnswers(upstream));
    expect(drainAnswers(ours)).toEqual(CONVERGED);
  });
});
