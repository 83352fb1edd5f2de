import { describe, expect, it } from "vitest";
import {
  closeSteps,
  eventTypes,
  openSteps,
  type Step,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import { answer, command, expectSameAnswers } from "./helpers/command-differential.js";
import { bothRunners, drainAnswers } from "./helpers/startup-release-differential.js";

// Differential: a session.open's startup facts still held when the session is destroyed, and no
// drain behind the destroy (a close keeps them held as fresh ones, `held-startup-release.ts`): what
// commits them then, a later command or the next runner, in upstream's Rust runner and ours.
const toolchain = serverToolchainForFile();

/** Prepared, opened (its two startup facts held: no drain came), destroyed. */
const destroyed = (work: string): Step[] => [...openSteps(work), ...command("session.destroy", "destroy")];

const drains = (count: number): Step[] =>
  Array.from({ length: count }, (_, index) => command("runner.drain", `drain ${index + 1}`)).flat();

describe("held startup facts after a session.destroy with no drain, against upstream's runner", {
  timeout: 120_000,
}, () => {
  it.each([
    [
      "a turn.start, refused on the closed session, commits them with its refusal",
      "turn.start",
      { text: "hi" },
      [true, true],
    ],
    [
      "a request.resolve, refused outside a turn, commits them with its refusal",
      "request.resolve",
      { requestId: "nope", turnId: "t", response: {} },
      [true, true],
    ],
    ["a turn.interrupt with no turn leaves them as a first drain does", "turn.interrupt", {}, [false, false]],
  ] as const)("%s", async (_name, type, payload, drained) => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...destroyed(work),
      ...command(type, "later", payload),
      ...drains(2),
      ...closeSteps,
    ]);
    expect([1, 2].map((n) => drainAnswers(ours)[`drain-${n}`])).toEqual(drained);
    expectSameAnswers(ours, upstream);
    // Committed once, behind the destroy's session.closed.
    expect(eventTypes(ours.committed).slice(3)).toEqual([
      "session.closed",
      "harness.diagnostic",
      "harness.diagnostic",
    ]);
  });

  it("leaves them to the next runner when killed: committed after the relaunch's first drain, no later drain needed", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...destroyed(work),
      { op: "sigkill" },
      { op: "restart" },
      ...command("runner.drain", "resume probe"),
      // Nothing else comes: upstream's runner commits them on its own (ours kept them held, until fixed).
      { op: "event", type: "harness.diagnostic", count: 2 },
      ...drains(2),
      ...closeSteps,
    ]);
    expect(answer(ours, "resume probe")).toMatchObject({ result: { retainedEventsDrained: false } });
    expectSameAnswers(ours, upstream);
    expect(eventTypes(ours.committed).slice(3)).toEqual([
      "session.closed",
      "runner.reconciled",
      "harness.diagnostic",
      "harness.diagnostic",
    ]);
  });
});
