import { describe, expect, it } from "vitest";
import {
  closeSteps,
  codexPrepare,
  eventTypes,
  providerRequests,
  type Step,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import { answer, command, expectSameAnswers, failed, toolResult } from "./helpers/command-differential.js";
import { bothRunners } from "./helpers/startup-release-differential.js";

// Differential: upstream's Rust runner and ours on the same commands through the server's control
// plane and the fake app-server (`helpers/startup-release-differential.ts`): commands before
// `run.prepare` and before `session.open`: snapshots, turns and steers that start Codex on a new
// thread, goal commands on that thread, an open while a turn is active. Each case compares the
// command's answer (status, and the result: `code` and `message` when it failed) and the committed
// event types; thread ids, pids and the work directory are normalised, nothing else.
const toolchain = serverToolchainForFile();

/**
 * The events of a session Codex was started for before `session.open` (its start's two facts),
 * which the open then resumes on that thread, probing the goal API.
 */
const STARTED_THEN_OPENED_ON_ITS_THREAD = [
  "harness.diagnostic",
  "harness.diagnostic",
  "session.resumed",
  "session.capabilities.updated",
  "session.goal.snapshot",
];

describe("commands before session.open against upstream's runner", { timeout: 120_000 }, () => {
  it("fails provider commands before run.prepare, then prepares the provider", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("session.snapshot", "snapshot"),
      ...command("turn.start", "turn", { text: "hi" }),
      ...command("session.close", "close"),
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("session.open", "open", { reuse: "same_session" }),
      ...closeSteps,
    ]);
    for (const id of ["snapshot", "turn", "close"]) {
      expect(answer(ours, id)).toEqual(
        failed("run.prepare must select a provider before provider commands execute"),
      );
    }
    expect(answer(ours, "open")).toMatchObject({ status: "completed", result: { status: "started" } });
    expectSameAnswers(ours, upstream);
  });

  it("answers commands before session.open as upstream's: a steer with a text starts the provider on a new thread", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("turn.steer", "steer", { text: "x" }),
      ...command("turn.interrupt", "interrupt", {}),
      ...command("session.snapshot", "snapshot"),
      ...command("request.resolve", "resolve", { requestId: "nope", turnId: "t", response: {} }),
      ...command("semantic_tool.result", "tool result", toolResult("nope")),
      ...command("turn.stop", "stop", {}),
      ...command("session.open", "open", { reuse: "same_session" }),
      ...closeSteps,
    ]);
    expect(answer(ours, "snapshot")).toMatchObject({
      status: "completed",
      result: { driverSessionId: "<thread>", goalRevision: 0, cwd: "<work>/workspace" },
    });
    expect(answer(ours, "resolve")).toEqual(
      failed("cannot resolve a Codex runtime request outside an active turn"),
    );
    expect(answer(ours, "tool result")).toEqual(
      failed("semantic tool result was rejected: tool result does not match a pending provider call"),
    );
    expect(answer(ours, "stop")).toEqual({
      status: "completed",
      result: {
        status: "already_settled",
        providerTurnId: null,
        reason: "turn.stop",
        interruptAccepted: false,
        providerExitConfirmed: true,
      },
    });
    expect(answer(ours, "open")).toMatchObject({ status: "completed", result: { status: "resumed" } });
    expectSameAnswers(ours, upstream);
    expect(eventTypes(ours.committed)).toEqual(STARTED_THEN_OPENED_ON_ITS_THREAD);
  });

  it("runs a turn.start before session.open on a new thread; the open then resumes it", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("turn.start", "turn-1", { text: "hi" }),
      { op: "event", type: "run.terminal" },
      ...command("session.open", "open", { reuse: "same_session" }),
      ...command("turn.start", "turn-2", { text: "hi" }),
      { op: "event", type: "run.terminal", count: 2 },
      ...closeSteps,
    ]);
    expect(answer(ours, "turn-1")).toEqual({
      status: "completed",
      result: { status: "accepted", providerTurnId: "turn-1" },
    });
    expectSameAnswers(ours, upstream);
  });

  it("answers a snapshot before session.open from the prepared state, as upstream's: no Codex, no thread", async () => {
    const open = command("session.open", "open", { reuse: "same_session" });
    const drains = [1, 2, 3, 4].flatMap((n) => command("runner.drain", `drain ${n}`));
    const snapshot = (name: string) => command("session.snapshot", name);
    const sequences: ((work: string) => Step[])[] = [
      (work) => [...command("run.prepare", "prepare", codexPrepare(work)), ...snapshot("snapshot"), ...open],
      (work) => [
        ...command("run.prepare", "prepare", codexPrepare(work)),
        ...snapshot("snapshot"),
        ...command("run.prepare", "prepare again", codexPrepare(work)),
        ...open,
      ],
      (work) => [
        ...command("run.prepare", "prepare", codexPrepare(work)),
        ...snapshot("snapshot"),
        ...snapshot("snapshot again"),
        ...open,
      ],
      // Neither a refused steer, a stop, a resolve nor a goal command starts Codex either.
      (work) => [
        ...command("run.prepare", "prepare", codexPrepare(work)),
        ...command("turn.steer", "steer without text", {}),
        ...command("turn.stop", "stop", {}),
        ...command("request.resolve", "resolve", { requestId: "nope", turnId: "t", response: {} }),
        ...command("session.goal.get", "goal get"),
        ...snapshot("snapshot"),
        ...open,
      ],
    ];
    for (const sequence of sequences) {
      const [ours, upstream] = await bothRunners(toolchain(), (work) => [
        ...sequence(work),
        ...drains,
        ...closeSteps,
      ]);
      // Ours started Codex on a new thread for the snapshot (session_open), refused the second
      // run.prepare as re-binding an open session and reported the open `resumed`.
      expect(answer(ours, "snapshot")).toMatchObject({
        status: "completed",
        result: { status: "prepared", driverSessionId: null, providerSessionId: null, sessionId: null },
      });
      expect(answer(ours, "open")).toMatchObject({ status: "completed", result: { status: "started" } });
      expect(eventTypes(ours.committed).slice(0, 3)).toEqual([
        "session.started",
        "session.capabilities.updated",
        "session.goal.snapshot",
      ]);
      // The open's facts held as a plain open's: F,F,F then drained.
      expect([1, 2, 3, 4].map((n) => answer(ours, `drain ${n}`))).toEqual(
        [false, false, false, true].map((value) => ({
          status: "completed",
          result: { status: "completed", retainedEventsDrained: value },
        })),
      );
      expectSameAnswers(ours, upstream);
      for (const result of [ours, upstream]) {
        expect(result.providerLog.filter((record) => record.kind === "start")).toHaveLength(1);
        expect(providerRequests(result, "thread/resume")).toHaveLength(0);
      }
    }
  });

  it("starts Codex for a turn.steer with a text before session.open, then commits its facts first", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("turn.steer", "steer", { text: "x" }),
      ...command("session.snapshot", "snapshot"),
      ...command("session.open", "open", { reuse: "same_session" }),
      ...command("runner.drain", "drain 1"),
      ...command("runner.drain", "drain 2"),
      ...closeSteps,
    ]);
    expect(answer(ours, "steer")).toEqual(
      failed("Codex turn steer failed: Codex has no active provider turn"),
    );
    expect(answer(ours, "snapshot")).toMatchObject({
      result: { status: "session_open", driverSessionId: "<thread>" },
    });
    expect(answer(ours, "open")).toMatchObject({ status: "completed", result: { status: "resumed" } });
    // The steer's start facts come first, then the open's resume of that thread.
    expect(eventTypes(ours.committed)).toEqual(STARTED_THEN_OPENED_ON_ITS_THREAD);
    expect(answer(ours, "drain 2")).toMatchObject({ result: { retainedEventsDrained: true } });
    expectSameAnswers(ours, upstream);
  });

  it("answers a turn.steer with an empty text before session.open as upstream's", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("turn.steer", "empty steer", { text: "" }),
      ...command("session.snapshot", "snapshot"),
      ...command("session.open", "open", { reuse: "same_session" }),
      ...closeSteps,
    ]);
    expectSameAnswers(ours, upstream);
  });

  it("fails a session.open while a turn is active as upstream's, a turn begun before session.open too", async () => {
    const hang = [
      ...command("turn.start", "turn", { text: "hang" }),
      { op: "event", type: "turn.started" } as const,
    ];
    const open = (name: string) => command("session.open", name, { reuse: "same_session" });
    const sequences: ((work: string) => Step[])[] = [
      (work) => [
        ...command("run.prepare", "prepare", codexPrepare(work)),
        ...open("open"),
        ...hang,
        ...open("open during the turn"),
      ],
      (work) => [
        ...command("run.prepare", "prepare", codexPrepare(work)),
        ...hang,
        ...open("open during the turn"),
      ],
    ];
    for (const sequence of sequences) {
      const [ours, upstream] = await bothRunners(toolchain(), (work) => [
        ...sequence(work),
        ...command("session.snapshot", "snapshot"),
        ...command("turn.interrupt", "interrupt", {}),
        { op: "event", type: "run.terminal" },
        ...command("runner.drain", "drain 1"),
        ...open("open after the turn"),
        ...closeSteps,
      ]);
      // Ours reopened the session (`resumed`, its events) under the running turn.
      expect(answer(ours, "open during the turn")).toEqual(
        failed("cannot open a new Codex session while a provider turn is active"),
      );
      expect(answer(ours, "open after the turn")).toMatchObject({ result: { status: "resumed" } });
      expectSameAnswers(ours, upstream);
    }
  });

  it("starts Codex for a turn.start with empty text before session.open, then commits its facts first", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("turn.start", "empty", { text: "" }),
      ...command("session.open", "open", { reuse: "same_session" }),
      ...closeSteps,
    ]);
    expect(answer(ours, "empty")).toEqual(
      failed("Codex turn/start failed: Codex turn text is empty or exceeds the 1 MiB limit"),
    );
    expect(answer(ours, "open")).toMatchObject({ status: "completed", result: { status: "resumed" } });
    // The start's facts first (held for a turn that never came), then the open's resume of that thread.
    expect(eventTypes(ours.committed)).toEqual(STARTED_THEN_OPENED_ON_ITS_THREAD);
    // The open found Codex running: both answer the drain behind it retainedEventsDrained:false.
    expect(answer(ours, "drain")).toMatchObject({ result: { retainedEventsDrained: false } });
    expectSameAnswers(ours, upstream);
    for (const result of [ours, upstream]) {
      expect(result.providerLog.filter((record) => record.kind === "start")).toHaveLength(1);
    }
  });

  it("answers goal commands on a thread a command started before session.open as unavailable", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("turn.start", "empty", { text: "" }),
      ...command("session.goal.get", "goal get"),
      ...command("session.goal.set", "goal set", { objective: "x" }),
      ...command("session.goal.clear", "goal clear"),
      ...command("session.open", "open", { reuse: "same_session" }),
      ...command("session.goal.set", "goal set after open", { objective: "x" }),
      ...closeSteps,
    ]);
    const unavailable = failed("Codex session goals are unavailable for this provider session");
    // Ours asked Codex (the goal API never probed) and committed what it answered.
    for (const id of ["goal get", "goal set", "goal clear"]) expect(answer(ours, id)).toEqual(unavailable);
    expect(answer(ours, "goal set after open")).toMatchObject({
      status: "completed",
      result: { status: "accepted", snapshot: { revision: 2 } },
    });
    // Not compared: right behind a goal change upstream's drain answers retainedEventsDrained false
    // or true as Codex's notification of it arrives (seen both ways); ours answers true.
    expect(answer(ours, "drain")).toMatchObject({ result: { retainedEventsDrained: true } });
    expectSameAnswers(ours, upstream, ["drain"]);
  });
});
