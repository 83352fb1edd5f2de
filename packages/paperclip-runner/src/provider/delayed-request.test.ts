import { describe, expect, it } from "vitest";
import type { CodexProviderState } from "./codex-provider-state.js";
import { isDelayedRequest } from "./delayed-request.js";
import { EarlyDescendantNotes } from "./early-descendant-notes.js";
import type { ExecutorContext } from "./executor-context.js";
import type { ProviderEvent } from "./provider-event.js";
import { handleProviderInbound } from "./provider-inbound.js";

const state = {
  threadId: "thread-1",
  activeProviderTurnId: null,
  config: { provider: "codex" },
} as unknown as CodexProviderState;

/** An executor context whose provider peer records what the runner answers, past turn-1. */
function settledContext() {
  const answers: unknown[] = [];
  const events: ProviderEvent[] = [];
  const bridgeCalls: string[] = [];
  const bridged = (bridge: string): null => {
    bridgeCalls.push(bridge);
    return null;
  };
  const ctx = {
    killed: false,
    bound: true,
    session: {
      peer: {
        respond: (id: string | number, result: unknown) => answers.push({ id, result }),
        respondError: (id: string | number, code: number, message: string) =>
          answers.push({ id, error: { code, message } }),
      },
    },
    state: () => state,
    settledTurnId: "turn-1",
    deferredStartup: null,
    lateResumeNotes: false,
    emitAll: async (emitted: readonly ProviderEvent[]) => {
      events.push(...emitted);
    },
    // The bridges find no reused id (null): nothing fails the provider.
    tools: { onCall: async () => bridged("tool") },
    inputs: { onRequest: async () => bridged("input") },
    earlyNotes: new EarlyDescendantNotes(),
  } as unknown as ExecutorContext;
  return { ctx, answers, events, bridgeCalls };
}

const warning = (method: string) => ({
  eventType: "provider.notice.recorded",
  priority: 0,
  payload: expect.objectContaining({
    severity: "warning",
    scope: "turn",
    summary: `ignored delayed ${method} request after the Codex turn terminated`,
  }),
});

describe("a request Codex sends for a turn that is not running", () => {
  it("answers a late tool call as a failed call and notices it, as upstream's runner", async () => {
    const { ctx, answers, events, bridgeCalls } = settledContext();
    const params = {
      threadId: "thread-1",
      turnId: "turn-1",
      callId: "call-1",
      tool: "report",
      arguments: {},
    };
    await handleProviderInbound(ctx, { kind: "request", id: 7, method: "item/tool/call", params });
    expect(answers).toEqual([
      {
        id: 7,
        result: {
          success: false,
          contentItems: [{ type: "inputText", text: "the Codex turn has already terminated" }],
        },
      },
    ]);
    expect(events).toEqual([warning("item/tool/call")]);
    expect(bridgeCalls).toEqual([]);
  });

  it("answers a late question with upstream's JSON-RPC error and notices it", async () => {
    const { ctx, answers, events } = settledContext();
    const params = { threadId: "thread-1", turnId: "turn-1", itemId: "i1", questions: [{ question: "?" }] };
    await handleProviderInbound(ctx, {
      kind: "request",
      id: "q",
      method: "item/tool/requestUserInput",
      params,
    });
    expect(answers).toEqual([
      { id: "q", error: { code: -32000, message: "the Codex turn has already terminated" } },
    ]);
    expect(events).toEqual([warning("item/tool/requestUserInput")]);
  });

  it("answers a request naming a turn never seen as a late one, as upstream's runner", async () => {
    const { ctx, answers, events, bridgeCalls } = settledContext();
    const params = {
      threadId: "thread-1",
      turnId: "turn-9",
      callId: "call-9",
      tool: "report",
      arguments: {},
    };
    await handleProviderInbound(ctx, { kind: "request", id: 9, method: "item/tool/call", params });
    expect(answers).toMatchObject([{ id: 9, result: { success: false } }]);
    expect(events).toEqual([warning("item/tool/call")]);
    expect(bridgeCalls).toEqual([]);
  });

  it("leaves the running turn's request, and one naming no turn, to the bridges", async () => {
    const { ctx, answers, bridgeCalls } = settledContext();
    await handleProviderInbound(ctx, {
      kind: "request",
      id: 1,
      method: "item/tool/call",
      params: { threadId: "thread-1" },
    });
    expect(answers).toEqual([]);
    expect(bridgeCalls).toEqual(["tool"]);
    const running = { ...state, activeProviderTurnId: "turn-1" };
    expect(isDelayedRequest("item/tool/call", { threadId: "thread-1", turnId: "turn-1" }, running)).toBe(
      false,
    );
    expect(isDelayedRequest("item/tool/call", { threadId: "thread-2", turnId: "turn-9" }, state)).toBe(false);
    expect(isDelayedRequest("thread/other", { threadId: "thread-1", turnId: "turn-9" }, state)).toBe(false);
  });
});
