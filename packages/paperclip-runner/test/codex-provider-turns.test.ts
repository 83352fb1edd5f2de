import { describe, expect, it } from "vitest";
import { semanticContentDigest } from "../src/provider/semantic-digest.js";
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

describe("Codex turns through the server's control plane", { timeout: 120_000 }, () => {
  it("answers a dynamic tool call through semantic_tool.input/result with the digest the control plane recomputes", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work),
        { op: "queue", type: "turn.start", payload: { text: "tool:report_progress" }, id: "turn" },
        { op: "event", type: "run.terminal" },
        ...closeSteps,
      ]);
      expect(result.failure).toBeNull();
      expect(result.invalid).toEqual([]);
      const input = firstEvent(result, "semantic_tool.input");
      expect(input.priority).toBe(0);
      const semantic = input.payload.semantic_tool as Record<string, unknown>;
      expect(semantic).toMatchObject({
        phase: "input",
        operationId: "report_progress",
        callId: "call-turn-1",
        correlation: {
          runId: "run-codex-1",
          normalizedSessionId: "session-codex-1",
          turnId: "turn-codex-1",
          itemId: "item-codex-1",
        },
        content: { redactionDisposition: "digest_only", references: [] },
      });
      // The credential-shaped argument is digested redacted, as the control plane does.
      expect((semantic.content as { digest: string }).digest).toBe(semanticContentDigest(semantic.input));
      expect(result.semanticCalls).toHaveLength(1);
      const delivered = commandOf(
        result,
        result.commands.find((command) => command.type === "semantic_tool.result")?.commandId ?? "",
      );
      expect(delivered?.result.result).toEqual({ status: "delivered", callId: "call-turn-1" });
      expect(firstEvent(result, "semantic_tool.result").payload.semantic_tool).toMatchObject({
        phase: "result",
        outcome: "succeeded",
        code: "semantic_tool_succeeded",
        operationReceiptId: "operation_call-turn-1",
      });
      const answer = result.providerLog.find((record) => record.kind === "tool_answer")?.answer;
      // The result as upstream's serde_json writes it: keys sorted (the server sent `ok` first).
      expect(answer).toEqual({
        success: true,
        contentItems: [
          { type: "inputText", text: JSON.stringify({ echoed: "hello from the model", ok: true }) },
        ],
      });
      // Upstream's order (codex-open-session-edges-upstream.test.ts): the proposed result before the turn's end.
      expect(eventTypes(result.committed).slice(-3)).toEqual([
        "run.result.proposed",
        "turn.completed",
        "run.terminal",
      ]);
    });
  });

  it("interrupts a running turn (provider_interrupt_requested, then turn.interrupted) and steers the next one; fails an empty start, a second start, a steer Codex refuses and a late steer", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work, codexPrepare(work, { contract: false })),
        { op: "queue", type: "turn.start", payload: { text: "" }, id: "turn-empty" },
        { op: "command", id: "turn-empty" },
        { op: "queue", type: "turn.start", payload: { text: "hang" }, id: "turn-1" },
        { op: "event", type: "turn.started" },
        { op: "queue", type: "turn.start", payload: { text: "plain" }, id: "turn-twice" },
        { op: "command", id: "turn-twice" },
        { op: "queue", type: "turn.steer", payload: { text: "refuse" }, id: "refused-steer" },
        { op: "command", id: "refused-steer" },
        { op: "queue", type: "turn.interrupt", payload: { reason: "user asked" }, id: "interrupt" },
        { op: "event", type: "turn.interrupted" },
        { op: "queue", type: "turn.steer", payload: { text: "too late" }, id: "late-steer" },
        { op: "command", id: "late-steer" },
        { op: "queue", type: "turn.start", payload: { text: "hang" }, id: "turn-2" },
        { op: "event", type: "turn.started", count: 2 },
        {
          op: "queue",
          type: "turn.steer",
          payload: { text: "go left", providerTurnId: "turn-2" },
          id: "steer",
        },
        { op: "event", type: "turn.completed" },
        ...closeSteps,
      ]);
      expect(result.failure).toBeNull();
      expect(result.invalid).toEqual([]);
      // An empty text is no turn: failed as upstream's runner fails it, Codex never asked.
      expect(commandOf(result, "turn-empty")?.result).toMatchObject({
        status: "failed",
        result: {
          code: "command_execution_failed",
          message: "Codex turn/start failed: Codex turn text is empty or exceeds the 1 MiB limit",
        },
      });
      expect(providerRequests(result, "turn/start").map((params) => params.input)).not.toContainEqual([
        expect.objectContaining({ text: "" }),
      ]);
      // Refused by the provider's state as upstream's runner fails them: the active turn goes on.
      expect(commandOf(result, "turn-twice")?.result).toMatchObject({
        status: "failed",
        result: { code: "command_execution_failed", message: "Codex already has an active provider turn" },
      });
      // Codex refused the steer itself: upstream's result quotes Codex's error.
      expect(commandOf(result, "refused-steer")?.result).toMatchObject({
        status: "failed",
        result: {
          code: "command_execution_failed",
          message:
            'Codex turn steer failed: Codex turn/steer failed: {"code":-32600,"message":"no active turn to steer"}',
        },
      });
      expect(commandOf(result, "late-steer")?.result).toMatchObject({
        status: "failed",
        result: {
          code: "command_execution_failed",
          message: "Codex turn steer failed: Codex has no active provider turn",
        },
      });
      // The command's type is the reason, whatever the payload says (as upstream's).
      expect(commandOf(result, "interrupt")?.result.result).toEqual({
        status: "interrupt_requested",
        reason: "turn.interrupt",
        providerTurnId: "turn-1",
      });
      // As upstream's runner: no diagnostic of its own for an interrupt, the turn's end says it.
      expect(
        result.committed
          .filter((event) => event.eventType === "harness.diagnostic")
          .map((event) => event.payload.code),
      ).toEqual(["provider_startup_ownership", "provider_startup_ownership"]);
      expect(firstEvent(result, "turn.interrupted").payload).toEqual({
        provider: "codex",
        providerTurnId: "turn-1",
        status: "interrupted",
        error: null,
      });
      expect(commandOf(result, "steer")?.result.result).toEqual({ status: "steered" });
      expect(firstEvent(result, "item.completed").payload).toMatchObject({ text: "steered: go left" });
      // Without a completion contract no run terminal is proposed.
      expect(eventTypes(result.committed)).not.toContain("run.terminal");
      expect(result.exits).toEqual([{ phase: "final", code: 0, signal: null }]);
    });
  });

  it("fails provider kinds it does not execute with upstream's results, and starts nothing", async () => {
    await withWork(async (work) => {
      const prepare = (kind: string): Record<string, unknown> => {
        const payload = codexPrepare(work);
        return { ...payload, provider: { ...(payload.provider as object), kind, provider: kind } };
      };
      const result = await driveCodexRunner(toolchain(), work, [
        ...["acpx", "claude_managed", "aws_agentcore", "cursor"].flatMap((kind) => [
          { op: "queue" as const, type: "run.prepare", payload: prepare(kind), id: `prepare-${kind}` },
          { op: "command" as const, id: `prepare-${kind}` },
        ]),
        { op: "queue", type: "runner.suspend", id: "suspend" },
        { op: "exit" },
      ]);
      const prefixes: Record<string, string> = {
        acpx: "run.prepare ACPX provider is invalid: unknown field `approvalPolicy`",
        claude_managed: "Claude Managed provider descriptor is invalid: unknown field `approvalPolicy`",
        aws_agentcore: "AWS AgentCore provider descriptor is invalid: unknown field `approvalPolicy`",
        cursor: "provider kind cursor is not executable through the local runnerd boundary",
      };
      for (const [kind, prefix] of Object.entries(prefixes)) {
        const answer = commandOf(result, `prepare-${kind}`)?.result;
        expect(answer?.status).toBe("failed");
        expect(answer?.result).toMatchObject({ code: "command_execution_failed" });
        expect(String(answer?.result?.message).startsWith(prefix)).toBe(true);
      }
      expect(result.providerLog).toEqual([]);
      expect(result.exits).toEqual([{ phase: "final", code: 0, signal: null }]);
    });
  });
});
