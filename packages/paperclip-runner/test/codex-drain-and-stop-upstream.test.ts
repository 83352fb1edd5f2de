import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import {
  closeSteps,
  codexPrepare,
  type DriverResult,
  providerRequests,
  type Step,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import { answer, command, expectSameAnswers, slug } from "./helpers/command-differential.js";
import { bothRunners } from "./helpers/startup-release-differential.js";

// Differential: upstream's Rust runner and ours on the same commands through the server's control
// plane and the fake app-server (`helpers/startup-release-differential.ts`): `runner.drain` behind
// a cancel, interrupt, stop or close, and what a `turn.stop` leaves for the snapshot and goal
// commands. Each case compares the command's answer (status, and the result: `code` and `message`
// when it failed) and the committed event types; thread ids, pids and the work directory are
// normalised, nothing else.
const toolchain = serverToolchainForFile();

/** A session whose hanging turn a `turn.stop` ended. */
const stopped = (work: string): Step[] => [
  ...command("run.prepare", "prepare", codexPrepare(work)),
  ...command("session.open", "open", { reuse: "same_session" }),
  ...command("turn.start", "hang", { text: "hang" }),
  { op: "event", type: "turn.started" },
  ...command("turn.stop", "stop", {}),
];

/** `retainedEventsDrained` of the answers to the drains named `drain 1` … `drain <count>`. */
const drainedFlags = (result: DriverResult, count = 3): unknown[] =>
  Array.from(
    { length: count },
    (_, index) =>
      (answer(result, `drain ${index + 1}`) as { result?: { retainedEventsDrained?: unknown } }).result
        ?.retainedEventsDrained,
  );

describe("drains and turn.stop against upstream's runner", { timeout: 120_000 }, () => {
  it("answers drains behind a cancel, interrupt or stop with no turn after session.open as upstream's", async () => {
    // The open's held facts stay held as behind a first drain: the drains answer F,F,T (F,F,F,T
    // without the command); ours committed them behind the command and answered T,T,T.
    const settles: ((work: string) => Step[])[] = [
      () => command("run.cancel", "settle", { reason: "user" }),
      () => command("turn.interrupt", "settle", {}),
      () => command("turn.stop", "settle", {}),
      () => [
        ...command("run.cancel", "settle", { reason: "user" }),
        ...command("run.cancel", "settle again", {}),
      ],
      () => [
        ...command("runner.drain", "drain before"),
        ...command("run.cancel", "settle", { reason: "user" }),
      ],
    ];
    for (const settle of settles) {
      const [ours, upstream] = await bothRunners(toolchain(), (work) => [
        ...command("run.prepare", "prepare", codexPrepare(work)),
        ...command("session.open", "open", { reuse: "same_session" }),
        ...settle(work),
        ...[1, 2, 3].flatMap((n) => command("runner.drain", `drain ${n}`)),
        ...closeSteps,
      ]);
      expect(answer(ours, "settle")).toMatchObject({
        status: "completed",
        result: { status: "already_settled" },
      });
      // The first drain keeps the facts (false) in both; when the next ones answer true depends on
      // whether the commit due 250 ms after a drain's answer, and the server's acknowledgements,
      // beat the next drain (F,F,T on a quiet machine; a loaded one moved it once). Ours must get there.
      expect((answer(ours, "drain 1") as { result?: unknown }).result).toEqual({
        status: "completed",
        retainedEventsDrained: false,
      });
      expect(drainedFlags(ours)).toContain(true);
      expectSameAnswers(ours, upstream, ["drain 2", "drain 3"].map(slug));
    }
  });

  it("starts Codex again after a turn.stop for the goal commands, not for a snapshot, as upstream's", async () => {
    const scenarios = [
      (work: string) => [
        ...stopped(work),
        ...command("session.snapshot", "snapshot"),
        ...command("session.snapshot", "snapshot again"),
        ...command("session.goal.get", "goal get"),
        ...command("session.goal.set", "goal set", { objective: "x" }),
        ...command("session.goal.clear", "goal clear"),
        ...command("session.snapshot", "snapshot after goals"),
        ...closeSteps,
      ],
      (work: string) => [
        ...stopped(work),
        ...command("session.snapshot", "snapshot"),
        ...command("turn.start", "next", { text: "next" }),
        { op: "event", type: "run.terminal" } as const,
        ...closeSteps,
      ],
      (work: string) => [
        ...stopped(work),
        ...command("session.goal.set", "goal set", { objective: "x" }),
        ...command("session.open", "open again", { reuse: "same_session" }),
        ...command("session.snapshot", "snapshot"),
        ...closeSteps,
      ],
    ];
    for (const steps of scenarios) {
      const [ours, upstream] = await bothRunners(toolchain(), steps);
      expectSameAnswers(ours, upstream);
      // Ours answered these without Codex (goals "unavailable") until this was matched.
      for (const result of [ours, upstream]) {
        expect(result.providerLog.filter((record) => record.kind === "start")).toHaveLength(2);
        expect(providerRequests(result, "thread/resume")).toHaveLength(1);
      }
    }
    const [ours] = await bothRunners(toolchain(), scenarios[0] as (work: string) => Step[]);
    // The snapshot reports the session prepared; a goal command opens it.
    expect(answer(ours, "snapshot")).toMatchObject({ result: { status: "prepared", goalRevision: 1 } });
    expect(answer(ours, "goal get")).toMatchObject({ status: "completed", result: { revision: 2 } });
    expect(answer(ours, "snapshot after goals")).toMatchObject({
      result: { status: "session_open", goalRevision: 4 },
    });
  });

  it("answers a snapshot after a turn.stop without Codex; a cancel leaves a goal command's start held", async () => {
    const drains = [1, 2, 3].flatMap((n) => command("runner.drain", `drain ${n}`));
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...stopped(work),
      ...command("session.snapshot", "snapshot"),
      ...drains,
      ...closeSteps,
    ]);
    // Ours started Codex again for the snapshot; its drain then committed the restart's facts (false).
    for (const result of [ours, upstream])
      expect(result.providerLog.filter((record) => record.kind === "start")).toHaveLength(1);
    expect(drainedFlags(ours)).toEqual([true, true, true]);
    expectSameAnswers(ours, upstream);
    const [oursCancel, upstreamCancel] = await bothRunners(toolchain(), (work) => [
      ...stopped(work),
      ...command("session.goal.get", "goal get"),
      ...command("run.cancel", "cancel", { reason: "user" }),
      ...drains,
      ...closeSteps,
    ]);
    // The goal command's start facts stay held through the cancel as through a first drain.
    // F,F,T on a quiet machine; the later drains move with the 250 ms commit and the acknowledgements.
    expect(drainedFlags(oursCancel)[0]).toBe(false);
    expect(drainedFlags(oursCancel)).toContain(true);
    expectSameAnswers(oursCancel, upstreamCancel, ["drain 2", "drain 3"].map(slug));
  });

  it("answers a drain right behind a session.close as upstream's: events retained, then drained", async () => {
    const drain = (name: string) => command("runner.drain", name);
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...drain("drain before"),
      ...command("session.destroy", "destroy"),
      ...drain("drain behind the destroy"),
      ...drain("drain again"),
      ...command("session.close", "close again"),
      ...drain("drain behind a second close"),
      ...command("session.close", "close a third time"),
      ...command("session.close", "close a fourth time"),
      ...drain("drain behind two closes"),
      ...closeSteps,
    ]);
    const drained = (value: boolean) => ({
      status: "completed",
      result: { status: "completed", retainedEventsDrained: value },
    });
    expect(answer(ours, "drain before")).toEqual(drained(true));
    // Ours answered true here: it holds nothing back.
    expect(answer(ours, "drain behind the destroy")).toEqual(drained(false));
    expect(answer(ours, "drain again")).toEqual(drained(true));
    // A close of a session already closed counts too (only one right behind the close that closed
    // the session does not: the drain behind the existing test's "close again" answers true).
    expect(answer(ours, "drain behind a second close")).toEqual(drained(false));
    expect(answer(ours, "drain behind two closes")).toEqual(drained(false));
    // Upstream's answer right behind a close is the server's acknowledgement racing the drain:
    // false as ours, unless the acknowledgement won (true once in CI on a loaded machine). Only a
    // drain it answered true is left out of the comparison.
    const behindCloses = [
      "drain behind the destroy",
      "drain behind a second close",
      "drain behind two closes",
    ];
    const lostRace = behindCloses.filter((name) => isDeepStrictEqual(answer(upstream, name), drained(true)));
    expectSameAnswers(ours, upstream, lostRace.map(slug));
  });

  it("converges repeated drains after the sequences that reopen a running Codex, as upstream's", async () => {
    // The server's close repeats drains until one answers retainedEventsDrained:true: after each
    // sequence, drains with nothing between them must get there, answered as upstream's are.
    const drains = [1, 2, 3, 4, 5].flatMap((n) => command("runner.drain", `liveness ${n}`));
    const sequences: ((work: string) => Step[])[] = [
      (work) => [
        ...command("run.prepare", "prepare", codexPrepare(work)),
        ...command("turn.start", "empty", { text: "" }),
        ...command("session.open", "open", { reuse: "same_session" }),
      ],
      (work) => [
        ...command("run.prepare", "prepare", codexPrepare(work)),
        ...command("session.snapshot", "snapshot"),
        ...command("session.open", "open", { reuse: "same_session" }),
      ],
      (work) => [
        ...command("run.prepare", "prepare", codexPrepare(work)),
        ...command("session.open", "open", { reuse: "same_session" }),
        ...command("session.open", "open again", { reuse: "same_session" }),
      ],
    ];
    for (const sequence of sequences) {
      const [ours, upstream] = await bothRunners(toolchain(), (work) => [
        ...sequence(work),
        ...drains,
        ...closeSteps,
      ]);
      const answers = (result: DriverResult) =>
        [1, 2, 3, 4, 5].map(
          (n) =>
            (answer(result, slug(`liveness ${n}`)) as { result?: { retainedEventsDrained?: unknown } }).result
              ?.retainedEventsDrained,
        );
      expect(answers(ours)).toContain(true);
      expect(answers(ours)).toEqual(answers(upstream));
      expectSameAnswers(ours, upstream);
    }
  });
});
