import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isAlive } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import {
  closeSteps,
  codexPrepare,
  commandOf,
  type DriverResult,
  driveCodexRunner,
  eventTypes,
  expectContiguousOnce,
  fakeCodexArgs,
  firstEvent,
  openSteps,
  PLAIN_TURN_EVENTS,
  providerPids,
  providerRequests,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";
import { PERSIST_PAUSE_PRELOAD } from "./helpers/persist-pause.js";

const toolchain = serverToolchainForFile();

/** What every recovery must show: one thread, no event twice or missing, the dead runner's provider gone. */
function expectCleanRecovery(result: DriverResult): void {
  expect(result.failure).toBeNull();
  expect(result.invalid).toEqual([]);
  expect(expectContiguousOnce(result)).toBe(true);
  expect(new Set(result.committed.map((event) => event.sourceEventId)).size).toBe(result.committed.length);
  const started = firstEvent(result, "session.started").payload;
  expect(firstEvent(result, "session.resumed").payload).toMatchObject({
    provider: "codex",
    providerSessionId: started.providerSessionId,
  });
  const pids = providerPids(result);
  expect(pids.length).toBe(2);
  expect(pids.map(isAlive)).toEqual([false, false]);
  expect(result.exits).toEqual([
    { phase: "killed", code: null, signal: "SIGKILL" },
    { phase: "final", code: 0, signal: null },
  ]);
  // The app-server of the restarted runner resumed the exact thread.
  expect(providerRequests(result, "thread/resume")[0]).toMatchObject({
    threadId: started.providerSessionId,
    excludeTurns: true,
  });
}

/** As the server recovers: a fresh ticket, then a drain probe (the first command resumes the provider). */
const resumeSteps = [
  { op: "restart" },
  { op: "queue", type: "runner.drain", id: "resume-probe" },
  { op: "event", type: "session.reconciled" },
] as const;

const nextTurn = [
  { op: "queue", type: "turn.start", payload: { text: "after" }, id: "turn-after" },
  { op: "event", type: "item.completed" },
] as const;

/** A turn with usage, a second one killed mid-stream, the relaunch, and a third turn to its end. */
const killedMidStreamAfterATurn = [
  { op: "queue", type: "turn.start", payload: { text: "first" }, id: "turn-1" },
  { op: "event", type: "run.terminal" },
  { op: "queue", type: "turn.start", payload: { text: "hang" }, id: "turn-2" },
  { op: "event", type: "turn.started", count: 2 },
  { op: "sigkill" },
  ...resumeSteps,
  { op: "queue", type: "turn.start", payload: { text: "after" }, id: "turn-3" },
  { op: "event", type: "run.terminal", count: 3 },
] as const;

describe("SIGKILL of a runner driving Codex, and its relaunch", { timeout: 120_000 }, () => {
  it("mid-stream: the thread resumes, the lost turn fails with its terminal, a replayed usage snapshot is benign, the next turn works", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work),
        ...killedMidStreamAfterATurn,
        ...closeSteps,
      ]);
      expectCleanRecovery(result);
      expect(firstEvent(result, "turn.failed").payload).toEqual({
        provider: "codex",
        providerTurnId: "turn-2",
        status: "failed",
        providerTerminalObserved: false,
      });
      expect(firstEvent(result, "session.reconciled").payload).toEqual({
        provider: "codex",
        providerSessionId: firstEvent(result, "session.started").payload.providerSessionId,
        previousProviderTurnId: "turn-2",
        activeProviderTurnId: null,
      });
      const types = eventTypes(result.committed);
      const reconciledAt = types.indexOf("runner.reconciled");
      // Upstream's order; Codex replayed turn-1's usage during thread/resume: no usage event, no
      // failure from it, but the resume's diagnostic, held back until after the next turn's acceptance.
      expect(types.slice(reconciledAt)).toEqual([
        "runner.reconciled",
        "harness.diagnostic",
        "harness.diagnostic",
        "session.resumed",
        "session.reconciled",
        "run.result.proposed",
        "turn.failed",
        "run.terminal",
        "turn.accepted",
        "harness.diagnostic",
        ...PLAIN_TURN_EVENTS,
      ]);
      expect(result.committed[reconciledAt + 9]?.payload).toMatchObject({
        code: "codex_resume_usage_snapshot",
        receivedTurnId: "turn-1",
      });
      expect(commandOf(result, "turn-3")?.result.result).toEqual({
        status: "accepted",
        providerTurnId: "turn-3",
      });
    });
  });

  it("commits Codex's usage snapshot replayed after the next turn started as upstream's runner does, as it arrives", async () => {
    await withWork(async (work) => {
      const prepare = codexPrepare(work, { args: fakeCodexArgs("late-resume-usage") });
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work, prepare),
        ...killedMidStreamAfterATurn,
        ...closeSteps,
      ]);
      expectCleanRecovery(result);
      const types = eventTypes(result.committed);
      const accepted = types.lastIndexOf("turn.accepted");
      // The snapshot came behind turn-3's start: committed then, before the turn's own events.
      expect(types.slice(accepted, accepted + 3)).toEqual([
        "turn.accepted",
        "harness.diagnostic",
        "turn.started",
      ]);
      expect(result.committed[accepted + 1]?.payload).toMatchObject({
        code: "codex_resume_usage_snapshot",
        receivedTurnId: "turn-1",
      });
    });
  });

  it("before the provider answered turn/start: the command is indeterminate, never repeated, and the next turn works", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work),
        { op: "queue", type: "turn.start", payload: { text: "no-answer" }, id: "turn-1" },
        { op: "providerReceived", method: "turn/start" },
        { op: "sigkill" },
        ...resumeSteps,
        ...nextTurn,
        { op: "event", type: "run.terminal" },
        ...closeSteps,
      ]);
      expectCleanRecovery(result);
      expect(commandOf(result, "turn-1")?.status).toBe("indeterminate");
      expect(firstEvent(result, "session.reconciled").payload).toMatchObject({
        previousProviderTurnId: null,
        activeProviderTurnId: null,
      });
      const turnStarts = providerRequests(result, "turn/start");
      expect(turnStarts).toHaveLength(2);
      expect(commandOf(result, "turn-after")?.result.result).toEqual({
        status: "accepted",
        providerTurnId: "turn-2",
      });
    });
  });

  it("with a tool call pending: one semantic input, the late result is settled after the turn, the next turn works", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(
        toolchain(),
        work,
        [
          ...openSteps(work),
          { op: "queue", type: "turn.start", payload: { text: "tool:report_progress" }, id: "turn-1" },
          { op: "event", type: "semantic_tool.input" },
          { op: "sigkill" },
          ...resumeSteps,
          { op: "releaseTools" },
          ...nextTurn,
          { op: "event", type: "run.terminal", count: 2 },
          ...closeSteps,
        ],
        { holdTools: true },
      );
      expectCleanRecovery(result);
      expect(eventTypes(result.committed).filter((type) => type === "semantic_tool.input")).toHaveLength(1);
      const late = result.commands.find((command) => command.type === "semantic_tool.result");
      expect(late?.result.result).toEqual({ status: "settled_after_turn", callId: "call-turn-1" });
      expect(firstEvent(result, "turn.failed").payload).toMatchObject({ providerTurnId: "turn-1" });
      // As upstream: the lost turn's pending call is settled, failed, before session.reconciled.
      expect(firstEvent(result, "semantic_tool.result").payload.semantic_tool).toMatchObject({
        phase: "result",
        callId: "call-turn-1",
        outcome: "failed",
        code: "semantic_tool_failed",
        retryable: false,
      });
      const types = eventTypes(result.committed);
      expect(types.filter((type) => type === "semantic_tool.result")).toHaveLength(1);
      expect(types.indexOf("semantic_tool.result")).toBe(types.indexOf("session.reconciled") - 1);
    });
  });

  const settlingWindows = [
    {
      // The save that ends turn-1 is renamed into place, none of its terminal events committed.
      window: "after the turn's end was saved, before its terminal was committed",
      file: "codex-provider-state.json",
      match: '"settlingTurn":{"providerTurnId":"turn-1"',
    },
    {
      // turn-1's turn.completed is in durable mode's state, renamed into place; the run's terminal suffix is not.
      window: "after the turn's terminal was committed, before the run's terminal suffix",
      file: "runner-state.json",
      match: '"providerTurnId":"turn-1","status":"completed"',
    },
  ];

  it.each(settlingWindows)(
    "$window: each terminal event comes once, the next turn works",
    async ({ file, match }) => {
      await withWork(async (work) => {
        const launcherEnv = {
          // A URL: NODE_OPTIONS splits on spaces, and a checkout path may contain one.
          NODE_OPTIONS: `--import=${pathToFileURL(PERSIST_PAUSE_PRELOAD).href}`,
          PERSIST_PAUSE_AT: "renamed",
          PERSIST_PAUSE_FILE: file,
          PERSIST_PAUSE_MATCH: match,
          // Only the first runner stops there; the file says when it did.
          PERSIST_PAUSE_ONCE: path.join(work, "paused"),
        };
        const result = await driveCodexRunner(
          toolchain(),
          work,
          [
            ...openSteps(work),
            { op: "queue", type: "turn.start", payload: { text: "first" }, id: "turn-1" },
            { op: "fileContains", path: "paused", text: "paused at renamed" },
            { op: "sigkill" },
            { op: "restart" },
            { op: "queue", type: "runner.drain", id: "resume-probe" },
            { op: "event", type: "run.terminal" },
            ...nextTurn,
            { op: "event", type: "run.terminal", count: 2 },
            ...closeSteps,
          ],
          { launcherEnv },
        );
        expectCleanRecovery(result);
        const types = eventTypes(result.committed);
        // turn-1 whole, in order, before the relaunch's own events; nothing of it twice.
        expect(types.slice(types.indexOf("turn.started"), types.indexOf("runner.reconciled"))).toEqual(
          PLAIN_TURN_EVENTS,
        );
        expect(types.filter((type) => type === "turn.completed")).toHaveLength(2);
        expect(types.filter((type) => type === "run.terminal")).toHaveLength(2);
        expect(firstEvent(result, "turn.completed").payload).toMatchObject({
          providerTurnId: "turn-1",
          status: "completed",
        });
        expect(commandOf(result, "turn-after")?.result.result).toEqual({
          status: "accepted",
          providerTurnId: "turn-2",
        });
        const state = JSON.parse(
          await readFile(path.join(work, "runner", "codex-provider-state.json"), "utf8"),
        ) as Record<string, unknown>;
        expect(state.settlingTurn).toBeNull();
      });
    },
  );
});
