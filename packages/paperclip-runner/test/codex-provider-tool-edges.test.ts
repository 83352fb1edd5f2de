import { describe, expect, it } from "vitest";
import {
  closeSteps,
  codexPrepare,
  commandOf,
  driveCodexRunner,
  eventTypes,
  firstEvent,
  openSteps,
  providerRequests,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";

const toolchain = serverToolchainForFile();

/** What upstream's runner answers Codex for a call it denies. */
const DENIED_ANSWER = {
  success: false,
  contentItems: [
    {
      type: "inputText",
      text: JSON.stringify({
        error: {
          code: "invalid_tool_call",
          message: "Paperclip rejected this semantic tool call",
          retryable: false,
        },
      }),
    },
  ],
};

describe("Codex tool calls at the edges, through the server's control plane", { timeout: 120_000 }, () => {
  it("denies an input its tool's schema refuses: the provider is told, the control plane sees no call", async () => {
    await withWork(async (work) => {
      // The fake model's input has a `token` field this schema does not allow.
      const strict = {
        type: "object",
        properties: { body: { type: "string" } },
        additionalProperties: false,
      };
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work, codexPrepare(work, { contract: false, toolSchema: strict })),
        { op: "queue", type: "turn.start", payload: { text: "tool:report_progress" }, id: "turn" },
        { op: "event", type: "turn.completed" },
        ...closeSteps,
      ]);
      expect(result.failure).toBeNull();
      expect(result.invalid).toEqual([]);
      expect(result.semanticCalls).toEqual([]);
      expect(eventTypes(result.committed)).not.toContain("semantic_tool.input");
      const denied = result.committed.find(
        (event) => event.eventType === "harness.diagnostic" && event.payload.code === "semantic_tool_denied",
      );
      expect(denied?.priority).toBe(0);
      expect(denied?.payload).toEqual({
        code: "semantic_tool_denied",
        provider: "codex",
        callId: "call-turn-1",
        operationId: "report_progress",
        message: "provider arguments for report_progress failed JSON Schema validation",
        paperclipExecuted: false,
      });
      expect(result.providerLog.find((record) => record.kind === "tool_answer")?.answer).toEqual(
        DENIED_ANSWER,
      );
    });
  });

  it("settles a call pending at an interrupt as failed, takes the late result as settled; a stop commits no turn event and the next turn resumes the thread", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(
        toolchain(),
        work,
        [
          ...openSteps(work, codexPrepare(work, { contract: false })),
          { op: "queue", type: "turn.start", payload: { text: "tool:report_progress" }, id: "turn-1" },
          { op: "event", type: "semantic_tool.input" },
          { op: "queue", type: "turn.interrupt", payload: { reason: "user asked" }, id: "interrupt" },
          { op: "event", type: "turn.interrupted" },
          // The server answers the call only now, after the turn ended.
          { op: "releaseTools" },
          { op: "commandOfType", type: "semantic_tool.result" },
          { op: "queue", type: "turn.start", payload: { text: "hang" }, id: "turn-2" },
          { op: "event", type: "turn.started", count: 2 },
          { op: "queue", type: "turn.stop", payload: { reason: "closing" }, id: "stop" },
          { op: "command", id: "stop" },
          // The next turn starts the provider again on the same thread.
          { op: "queue", type: "turn.start", payload: { text: "after the stop" }, id: "turn-3" },
          { op: "event", type: "turn.completed" },
          ...closeSteps,
        ],
        { holdTools: true },
      );
      expect(result.failure).toBeNull();
      expect(result.invalid).toEqual([]);
      const types = eventTypes(result.committed);
      const settled = types.indexOf("semantic_tool.result");
      expect(settled).toBeGreaterThan(types.indexOf("semantic_tool.input"));
      expect(settled).toBeLessThan(types.indexOf("turn.interrupted"));
      expect(firstEvent(result, "semantic_tool.result").payload.semantic_tool).toMatchObject({
        callId: "call-turn-1",
        outcome: "failed",
        code: "semantic_tool_failed",
      });
      // The interrupted provider abandons the call itself: the runner does not answer it.
      expect(result.providerLog.filter((record) => record.kind === "tool_answer")).toEqual([]);
      const late = result.commands.find((command) => command.type === "semantic_tool.result");
      expect(late).toMatchObject({
        status: "completed",
        result: { result: { status: "settled_after_turn", callId: "call-turn-1" } },
      });
      // turn.stop retires the hanging turn without a turn event, as upstream's runner.
      expect(types.filter((type) => type === "turn.interrupted")).toHaveLength(1);
      const stopped = result.committed.findIndex(
        (event) => event.eventType === "turn.started" && event.payload.providerTurnId === "turn-2",
      );
      expect(types.slice(stopped + 1, stopped + 4)).toEqual([
        "turn.accepted",
        "harness.diagnostic",
        "harness.diagnostic",
      ]);
      expect(result.committed[stopped + 2]?.payload).toMatchObject({
        code: "provider_startup_ownership",
        startup: { trigger: "ensure", command: { commandId: "turn-3", commandType: "turn.start" } },
      });
      expect(types.filter((type) => type === "session.resumed")).toEqual([]);
      expect(providerRequests(result, "thread/resume")).toHaveLength(1);
      expect(commandOf(result, "turn-3")?.status).toBe("completed");
      expect(commandOf(result, "stop")?.result.result).toEqual({
        status: "stopped",
        providerTurnId: "turn-2",
        reason: "turn.stop",
        interruptAccepted: false,
        providerExitConfirmed: true,
      });
      expect(commandOf(result, "suspend")?.result.result).toEqual({ status: "completed" });
      expect(result.exits).toEqual([{ phase: "final", code: 0, signal: null }]);
    });
  });
});
