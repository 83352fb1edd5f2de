import { describe, expect, it } from "vitest";
import {
  closeSteps,
  codexPrepare,
  type DriverResult,
  eventTypes,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import { answer, command, expectSameAnswers, failed, toolResult } from "./helpers/command-differential.js";
import { prepareWith } from "./helpers/invalid-codex-prepares.js";
import { bothRunners } from "./helpers/startup-release-differential.js";

// Differential: upstream's Rust runner and ours on the same commands through the server's control
// plane and the fake app-server (`helpers/startup-release-differential.ts`): an open session's
// wrong-lifecycle and wrong-shape commands, the order of a turn's end, a provider command that does
// not exist, goal, cancel and payload edges. Each case compares the command's answer (status, and
// the result: `code` and `message` when it failed) and the committed event types; thread ids, pids
// and the work directory are normalised, nothing else.
const toolchain = serverToolchainForFile();

describe("open-session commands against upstream's runner", { timeout: 120_000 }, () => {
  it("answers an open session's wrong-lifecycle and wrong-shape commands as upstream's", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("session.open", "open", { reuse: "same_session" }),
      ...command("session.open", "open again", { reuse: "same_session" }),
      ...command("turn.steer", "steer, no turn", { text: "x" }),
      ...command("turn.interrupt", "interrupt, no turn", {}),
      ...command("request.resolve", "resolve, no turn", { requestId: "nope", turnId: "t", response: {} }),
      ...command("semantic_tool.result", "tool result, unknown id", toolResult("nope")),
      ...command("turn.start", "turn without text", {}),
      ...command("turn.start", "turn with a number as text", { text: 5 }),
      ...command("turn.start", "turn with empty text", { text: "" }),
      ...command("turn.start", "turn with a 241-character turnId", { text: "hang", turnId: "t".repeat(241) }),
      ...command("turn.start", "turn while one is active", { text: "again" }),
      ...command("request.resolve", "resolve, unknown 241-character id", {
        requestId: "r".repeat(241),
        turnId: "t",
        response: {},
      }),
      ...command("semantic_tool.result", "tool result, 161-byte id", toolResult("c".repeat(161))),
      ...command("semantic_tool.result", "tool result, no operationId", { callId: "nope", result: {} }),
      ...command("turn.steer", "steer with mode queue", { text: "x", mode: "queue" }),
      { op: "event", type: "run.terminal" },
      ...command("turn.stop", "stop, no turn", {}),
      ...command("session.close", "close"),
      ...command("session.close", "close again"),
      ...command("turn.start", "turn after close", { text: "hi" }),
      ...command("session.snapshot", "snapshot after close"),
      ...command("session.open", "open after close", { reuse: "same_session" }),
      ...closeSteps,
    ]);
    expect(answer(ours, "open again")).toMatchObject({ status: "completed", result: { status: "resumed" } });
    expect(answer(ours, "turn without text")).toEqual(failed("turn.start payload.text is required"));
    expect(answer(ours, "turn with a number as text")).toEqual(failed("turn.start payload.text is required"));
    expect(answer(ours, "resolve, unknown 241-character id")).toEqual(
      failed("Codex runtime response failed: runtime response has no pending Codex request"),
    );
    expect(answer(ours, "tool result, 161-byte id")).toEqual(
      failed("semantic tool result was rejected: tool result call id is invalid"),
    );
    expect(answer(ours, "tool result, no operationId")).toEqual(
      failed("semantic tool result is invalid: missing field `operationId`"),
    );
    expect(answer(ours, "steer with mode queue")).toEqual({
      status: "completed",
      result: { status: "steered" },
    });
    expect(answer(ours, "turn after close")).toEqual(failed("Codex provider session is closed"));
    expect(answer(ours, "open after close")).toEqual(failed("Codex provider session is closed"));
    expectSameAnswers(ours, upstream);
    expect(eventTypes(ours.committed)).toEqual([
      "session.started",
      "session.capabilities.updated",
      "session.goal.snapshot",
      "session.resumed",
      "session.capabilities.updated",
      "session.goal.snapshot",
      "harness.diagnostic",
      "harness.diagnostic",
      "turn.accepted",
      "turn.started",
      "item.started",
      "item.delta",
      "item.completed",
      "run.result.proposed",
      "turn.completed",
      "run.terminal",
      "session.closed",
      "session.closed",
    ]);
  });

  it("orders a turn's end as upstream's: the proposed result, the turn's event, the run's terminal", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("session.open", "open", { reuse: "same_session" }),
      ...command("turn.start", "completed", { text: "first" }),
      { op: "event", type: "run.terminal" },
      ...command("turn.start", "interrupted", { text: "hang" }),
      ...command("turn.interrupt", "interrupt", {}),
      { op: "event", type: "run.terminal", count: 2 },
      ...command("turn.start", "killed", { text: "hang" }),
      { op: "event", type: "turn.started", count: 3 },
      { op: "sigkill" },
      { op: "restart" },
      ...command("runner.drain", "probe"),
      { op: "event", type: "run.terminal", count: 3 },
      ...closeSteps,
    ]);
    const ends = (result: DriverResult): string[] =>
      eventTypes(result.committed).filter((type) =>
        ["run.result.proposed", "turn.completed", "turn.interrupted", "turn.failed", "run.terminal"].includes(
          type,
        ),
      );
    expect(ends(ours)).toEqual([
      "run.result.proposed",
      "turn.completed",
      "run.terminal",
      "run.result.proposed",
      "turn.interrupted",
      "run.terminal",
      "run.result.proposed",
      "turn.failed",
      "run.terminal",
    ]);
    expect(ends(ours)).toEqual(ends(upstream));
  });

  it("differs on purpose on a provider command that does not exist: ours fails the open and stays closable", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command(
        "run.prepare",
        "prepare",
        prepareWith(work, (p) => Object.assign(p, { command: "/nonexistent/codex" })),
      ),
      ...command("session.open", "open", { reuse: "same_session" }),
      ...command("session.snapshot", "snapshot"),
      ...closeSteps,
    ]);
    // Both prepare it (nothing starts at run.prepare) and fail the open.
    expect(answer(ours, "prepare")).toEqual(answer(upstream, "prepare"));
    expect(answer(upstream, "open")).toEqual(
      failed(
        "failed to start Codex provider: failed to start codex provider: failed to start supervised process /nonexistent/codex: No such file or directory (os error 2)",
      ),
    );
    expect(ours.commands.find((record) => record.commandId === "open")?.result).toMatchObject({
      status: "failed",
      message:
        "ERR_RUNNER_PROVIDER_START_FAILED: the provider process could not start: spawn /nonexistent/codex ENOENT",
    });
    // Upstream's runner is poisoned: every later command fails, the server's close cannot suspend it,
    // and it exits 1. Ours reports the failed session and answers the close.
    const poisoned = failed("provider startup ownership remains unadmitted");
    for (const id of ["snapshot", "drain", "suspend"]) expect(answer(upstream, id)).toEqual(poisoned);
    expect(eventTypes(upstream.committed)).toEqual(["harness.diagnostic", "harness.diagnostic"]);
    expect(upstream.exits).toEqual([{ phase: "final", code: 1, signal: null }]);
    expect(answer(ours, "snapshot")).toMatchObject({
      status: "completed",
      result: { status: "provider_exited" },
    });
    expect(answer(ours, "suspend")).toEqual({ status: "completed", result: { status: "completed" } });
    expect(eventTypes(ours.committed)).toEqual(["harness.diagnostic", "session.failed"]);
    expect(ours.exits).toEqual([{ phase: "final", code: 0, signal: null }]);
  });

  it("answers goal, cancel and payload edges, and a session destroyed, as upstream's", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("session.goal.get", "goal get before open"),
      ...command("session.goal.set", "goal set before open", { objective: "x" }),
      ...command("session.goal.clear", "goal clear before open"),
      ...command("run.cancel", "cancel before open", { reason: "user" }),
      ...command("session.open", "open", { reuse: "same_session" }),
      ...command("turn.interrupt", "interrupt with a reason, no turn", { reason: "user" }),
      ...command("run.cancel", "cancel with a reason, no turn", { reason: "user" }),
      ...command("request.resolve", "resolve without requestId", {}),
      ...command("semantic_tool.result", "tool result without callId", { operationId: "report_progress" }),
      ...command("semantic_tool.result", "tool result with a number as callId", {
        callId: 5,
        operationId: "report_progress",
      }),
      ...command("turn.start", "hang", { text: "hang" }),
      ...command("turn.steer", "steer without text", {}),
      ...command("turn.steer", "steer with a number as text", { text: 3 }),
      ...command("turn.interrupt", "interrupt with a reason", { reason: "user" }),
      { op: "event", type: "run.terminal" },
      ...command("turn.start", "turn with skills", { text: "hi", skills: ["a"] }),
      { op: "event", type: "run.terminal", count: 2 },
      ...command("turn.start", "hang again", { text: "hang" }),
      ...command("run.cancel", "cancel with a reason", { reason: "user" }),
      { op: "event", type: "run.terminal", count: 3 },
      ...command("session.destroy", "destroy"),
      ...command("session.destroy", "destroy again"),
      ...command("session.snapshot", "snapshot after destroy"),
      ...command("session.goal.get", "goal get after destroy"),
      ...command("turn.steer", "steer after destroy", { text: "x" }),
      ...command("turn.steer", "steer without text after destroy", {}),
      ...command("turn.interrupt", "interrupt after destroy", {}),
      ...command("turn.stop", "stop after destroy", {}),
      ...command("run.prepare", "prepare after destroy", codexPrepare(work)),
      ...command("session.open", "open after destroy", { reuse: "same_session" }),
      ...closeSteps,
    ]);
    expect(answer(ours, "goal get before open")).toEqual(
      failed("Codex session goals are unavailable for this provider session"),
    );
    expect(answer(ours, "cancel with a reason")).toMatchObject({ result: { reason: "run.cancel" } });
    expect(answer(ours, "resolve without requestId")).toEqual(failed("request.resolve requires requestId"));
    expect(answer(ours, "steer without text")).toEqual(failed("turn.steer payload.text is required"));
    expect(answer(ours, "steer after destroy")).toEqual(failed("Codex provider session is closed"));
    expect(answer(ours, "stop after destroy")).toEqual({
      status: "completed",
      result: { status: "already_settled", reason: "turn.stop" },
    });
    expect(answer(ours, "prepare after destroy")).toEqual(failed("Codex provider session is already closed"));
    expectSameAnswers(ours, upstream);
  });
});
