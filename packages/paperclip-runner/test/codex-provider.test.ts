import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { isAlive } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import {
  type CommittedEvent,
  closeSteps,
  codexPrepare,
  type DriverResult,
  driveCodexRunner,
  PLAIN_TURN_EVENTS,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";

const toolchain = serverToolchainForFile();

const types = (events: readonly CommittedEvent[]): string[] => events.map((event) => event.eventType);
const first = (result: DriverResult, type: string): CommittedEvent => {
  const event = result.committed.find((candidate) => candidate.eventType === type);
  if (event === undefined) throw new Error(`no ${type} in ${types(result.committed).join(", ")}`);
  return event;
};
const commandResult = (result: DriverResult, id: string) =>
  result.commands.find((command) => command.commandId === id);

describe("the Codex executor in durable mode, driven by the server's control plane", {
  timeout: 120_000,
}, () => {
  it("binds run.prepare without starting anything, reports the provider identity, runs a plain turn, drains and suspends", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        { op: "queue", type: "run.prepare", payload: codexPrepare(work), id: "prepare" },
        { op: "command", id: "prepare" },
        { op: "queue", type: "session.open", payload: { reuse: "same_session" }, id: "open" },
        { op: "event", type: "session.started" },
        { op: "queue", type: "turn.start", payload: { text: "hello", turnId: "turn_lab_1" }, id: "turn" },
        { op: "event", type: "run.terminal" },
        { op: "queue", type: "session.snapshot", id: "snapshot" },
        { op: "command", id: "snapshot" },
        { op: "queue", type: "runner.drain", id: "drain" },
        { op: "command", id: "drain" },
        { op: "queue", type: "runner.suspend", id: "suspend" },
        { op: "exit" },
      ]);
      expect(result.failure).toBeNull();
      expect(result.invalid).toEqual([]);
      expect(commandResult(result, "prepare")?.result.result).toEqual({
        status: "prepared",
        provider: "codex",
        driver: "codex_app_server",
      });
      const started = first(result, "session.started");
      expect(started.priority).toBe(0);
      expect(started.payload).toMatchObject({
        provider: "codex",
        providerAccountSessionId: "account-session-1",
      });
      const threadId = started.payload.providerSessionId as string;
      expect(threadId).toMatch(/^thread-/);
      expect(typeof started.payload.processId).toBe("number");
      expect(commandResult(result, "open")?.result.result).toMatchObject({
        status: "started",
        providerSessionId: threadId,
        processId: started.payload.processId,
      });
      expect(commandResult(result, "turn")?.result.result).toEqual({
        status: "accepted",
        providerTurnId: "turn-1",
      });
      expect(types(result.committed)).toEqual([
        "session.started",
        "session.capabilities.updated",
        "session.goal.snapshot",
        "turn.accepted",
        "harness.diagnostic",
        "harness.diagnostic",
        ...PLAIN_TURN_EVENTS,
      ]);
      expect(result.committed.map((event) => event.priority)).toEqual([
        0, 0, 0, 0, 0, 0, 0, 2, 2, 1, 0, 0, 0, 0,
      ]);
      expect(first(result, "session.capabilities.updated").payload).toMatchObject({
        sessionGoals: { availability: "available", actions: ["set", "pause", "resume", "clear"] },
      });
      // Upstream's provider startup facts for the session.open that started Codex, after the next command's event.
      const facts = result.committed
        .filter((event) => event.eventType === "harness.diagnostic")
        .map((event) => event.payload.startup as Record<string, unknown>);
      expect(facts.map((fact) => [fact.phase, fact.trigger, fact.attemptedProcessGeneration])).toEqual([
        ["intent", "ensure", 1],
        ["spawned", "ensure", 1],
      ]);
      expect(facts[1]).toMatchObject({
        schema: "paperclip.provider_startup.v1",
        command: { commandId: "open", commandType: "session.open" },
        processId: started.payload.processId,
        processGroupId: started.payload.processId,
      });
      expect(first(result, "item.delta").payload).toEqual({
        provider: "codex",
        itemId: "msg-turn-1",
        kind: "agentMessage",
        channel: "progress",
        providerMethod: "item/agentMessage/delta",
        text: "answer to hello",
      });
      expect(first(result, "run.terminal").payload).toEqual({
        schema: "paperclip.prp.terminal.v1",
        provider: "codex",
        turnTerminalState: "completed",
        runTerminalState: "succeeded",
        reportedWorkDisposition: "done",
      });
      expect(first(result, "run.result.proposed").payload).toMatchObject({ summary: "answer to hello" });
      expect(commandResult(result, "snapshot")?.result.result).toMatchObject({
        status: "session_open",
        driverSessionId: threadId,
        providerSessionId: threadId,
        activeProviderTurnId: null,
      });
      expect(commandResult(result, "drain")?.result.result).toEqual({
        status: "completed",
        retainedEventsDrained: true,
      });
      expect(result.exits).toEqual([{ phase: "final", code: 0, signal: null }]);

      // The app-server conversation, as upstream's runner holds it.
      const received = result.providerLog
        .filter((record) => record.kind === "received")
        .map((record) => record.message as Record<string, unknown>);
      expect(received.map((message) => message.method)).toEqual([
        "initialize",
        "initialized",
        "thread/start",
        "thread/goal/get",
        "turn/start",
      ]);
      expect(received[0]?.params).toMatchObject({ capabilities: { experimentalApi: true } });
      expect(received[2]?.params).toMatchObject({
        approvalPolicy: "never",
        dynamicTools: [{ name: "report_progress" }],
        permissions: "paperclip-runner-workspace-only",
      });
      const start = result.providerLog.find((record) => record.kind === "start") as {
        env: string[];
        pid: number;
      };
      expect(start.env).toContain("CODEX_HOME");
      expect(start.env).not.toContain("PAPERCLIP_RUNNER_BOOTSTRAP_TICKET");
      expect(isAlive(start.pid)).toBe(false);

      // The files the server reads directly.
      const runnerDir = path.join(work, "runner");
      const provider = JSON.parse(await readFile(path.join(runnerDir, "codex-provider-state.json"), "utf8"));
      expect(provider).toMatchObject({
        schema: "paperclip.runner.codex-provider-state.v1",
        threadId,
        providerSessionId: threadId,
        activeProviderTurnId: null,
        ambiguousTurnStartPending: false,
        pendingEvents: [],
        queuedEvents: [],
      });
      expect((await stat(path.join(runnerDir, "codex-provider-state.json"))).mode & 0o777).toBe(0o600);
      const runnerState = JSON.parse(await readFile(path.join(runnerDir, "runner-state.json"), "utf8"));
      expect(runnerState.lifecycle).toBe("suspended");
    });
  });

  it("keeps the startup facts of a session.open through the drain right behind it and carries them at the suspend", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        { op: "queue", type: "run.prepare", payload: codexPrepare(work), id: "prepare" },
        { op: "queue", type: "session.open", id: "open" },
        { op: "command", id: "open" },
        ...closeSteps,
      ]);
      expect(result.failure).toBeNull();
      expect(result.invalid).toEqual([]);
      expect(types(result.committed)).toEqual([
        "session.started",
        "session.capabilities.updated",
        "session.goal.snapshot",
      ]);
      // As upstream's runner does (`codex-startup-release-upstream.test.ts`): saved for the next run.
      const state = JSON.parse(
        await readFile(path.join(work, "runner", "codex-provider-state.json"), "utf8"),
      );
      expect(state.pendingEvents).toMatchObject([
        {
          executorEventId: "codex_provider_0000000000000001",
          eventType: "harness.diagnostic",
          priority: "p0",
        },
        {
          executorEventId: "codex_provider_0000000000000002",
          eventType: "harness.diagnostic",
          priority: "p0",
        },
      ]);
      expect(state.nextProviderEventSeq).toBe(3);
      expect(commandResult(result, "drain")?.result.result?.retainedEventsDrained).toBe(false);
      expect(result.exits).toEqual([{ phase: "final", code: 0, signal: null }]);
    });
  });
});
