import { describe, expect, it } from "vitest";
import type { CodexProviderState } from "./codex-provider-state.js";
import type { CodexSession } from "./codex-session.js";
import type { ProviderEvent } from "./provider-event.js";
import { MAX_PENDING_INPUTS, RuntimeInputBridge } from "./runtime-input-bridge.js";
import { runtimeRequestId } from "./runtime-request-id.js";

const state = {
  threadId: "thread-1",
  activeProviderTurnId: "turn-2",
  config: { provider: "codex" },
} as unknown as CodexProviderState;

const ask = (item: number) => ({
  threadId: "thread-1",
  turnId: "turn-2",
  itemId: `item-${item}`,
  questions: [{ id: "q", question: "Go on?" }],
});

/** A bridge over a Codex session that records every answer and every event; `scope` as the executor draws it. */
function codexBridge(scope?: Uint8Array) {
  const answers: unknown[] = [];
  const events: ProviderEvent[] = [];
  const session = {
    peer: {
      respond: (id: string | number, result: unknown) => answers.push({ id, result }),
      respondError: (id: string | number, code: number, message: string) =>
        answers.push({ id, error: { code, message } }),
    },
  } as unknown as CodexSession;
  const bridge = new RuntimeInputBridge({
    emit: async (event) => {
      events.push(event);
    },
    state: () => state,
    session: () => session,
    ...(scope === undefined ? {} : { scope }),
  });
  return { bridge, answers, events };
}

describe("RuntimeInputBridge with Codex's questions", () => {
  it("refuses a question past upstream's 128 open ones with its error and warning, and takes one once an answer frees a place", async () => {
    const { bridge, answers, events } = codexBridge();
    for (let item = 0; item < MAX_PENDING_INPUTS; item += 1) await bridge.onRequest(item, ask(item));
    expect(MAX_PENDING_INPUTS).toBe(128);
    expect(answers).toEqual([]);
    expect(events.filter((event) => event.eventType === "runtime_request.created")).toHaveLength(128);

    await bridge.onRequest("over", ask(999));
    expect(answers).toEqual([
      {
        id: "over",
        error: {
          code: -32000,
          message: "Paperclip rejected this runtime request because the pending input capacity was reached",
        },
      },
    ]);
    expect(events.at(-1)).toMatchObject({
      eventType: "provider.notice.recorded",
      priority: 0,
      payload: {
        severity: "warning",
        summary: "rejected a Codex runtime request at the bounded pending-input limit",
      },
    });

    const first = events.find((event) => event.eventType === "runtime_request.created");
    const requestId = (first?.payload.request as { requestId?: string } | undefined)?.requestId;
    const resolved = await bridge.resolve({
      requestId,
      response: { schema: "paperclip.question_response.v1", answers: { q: { text: "yes" } } },
    });
    expect(resolved).toMatchObject({ status: "accepted", result: { status: "delivered", requestId } });
    await bridge.onRequest("again", ask(1000));
    expect(events.at(-1)?.eventType).toBe("runtime_request.created");
  });

  it("names Codex's requests as upstream's: the turn, the JSON-RPC id and the sequence under the scope", async () => {
    const scope = new Uint8Array(16).fill(7);
    const { bridge, events } = codexBridge(scope);
    await bridge.onRequest(7, ask(1));
    await bridge.onRequest("srv-8", ask(1));
    expect(events.map((event) => (event.payload.request as { requestId: string }).requestId)).toEqual([
      runtimeRequestId(scope, "turn-2", "7", 1n),
      runtimeRequestId(scope, "turn-2", "srv-8", 2n),
    ]);
  });

  it("takes Codex's request again under an open request's id as the same one, and names one with other params a violation", async () => {
    const { bridge, answers, events } = codexBridge();
    expect(await bridge.onRequest(7, ask(1))).toBeNull();
    // The same params in another key order: the same request, nothing answered, nothing created.
    const { questions, ...rest } = ask(1);
    expect(await bridge.onRequest(7, { questions, ...rest })).toBeNull();
    expect(await bridge.onRequest(7, ask(2))).toBe("Codex reused a runtime request id with different input");
    expect(answers).toEqual([]);
    expect(events.map((event) => event.eventType)).toEqual(["runtime_request.created"]);
    // Once answered, the id is free again: another request.
    bridge.cancelPending();
    expect(await bridge.onRequest(7, ask(2))).toBeNull();
    expect(events.map((event) => event.eventType)).toEqual([
      "runtime_request.created",
      "runtime_request.created",
    ]);
  });

  it("names requests under a new scope from sequence 1 once the provider is started again, as upstream's", async () => {
    const first = new Uint8Array(16).fill(1);
    const second = new Uint8Array(16).fill(2);
    const { bridge, events } = codexBridge(first);
    await bridge.onRequest("srv-1", ask(1));
    await bridge.onRequest("srv-2", ask(2));
    // The lost turn's questions are answered (settled) with it; the new process asks afresh.
    bridge.cancelPending();
    bridge.renewScope(second);
    await bridge.onRequest("srv-1", ask(1));
    expect(events.map((event) => (event.payload.request as { requestId: string }).requestId)).toEqual([
      runtimeRequestId(first, "turn-2", "srv-1", 1n),
      runtimeRequestId(first, "turn-2", "srv-2", 2n),
      runtimeRequestId(second, "turn-2", "srv-1", 1n),
    ]);
  });
});
