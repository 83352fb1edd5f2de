import { describe, expect, it } from "vitest";
import { OPENCODE_QUESTION } from "../../test/helpers/opencode-question-refusals.js";
import { answers, COLOR, WHY } from "../../test/helpers/question-response-refusals.js";
import type { CodexProviderState } from "./codex-provider-state.js";
import type { QuestionSet } from "./codex-question-set.js";
import type { CodexSession } from "./codex-session.js";
import type { ProviderEvent } from "./provider-event.js";
import { RuntimeInputBridge, runtimeRequestId } from "./runtime-input-bridge.js";

function bridgeOf(active: string | null = "turn-1") {
  const sent: unknown[] = [];
  const events: ProviderEvent[] = [];
  const session = {
    peer: { respond: (id: string | number, result: unknown) => sent.push({ id, result }) },
  } as unknown as CodexSession;
  const state = {
    threadId: "thread-1",
    activeProviderTurnId: active,
    config: { provider: "opencode" },
  } as unknown as CodexProviderState;
  const bridge = new RuntimeInputBridge({
    emit: async (event) => {
      events.push(event);
    },
    state: () => state,
    session: () => session,
  });
  return { bridge, sent, events };
}

const question = {
  requestId: "que_1",
  turnId: "turn-1",
  itemId: "item-1",
  questionSet: OPENCODE_QUESTION as unknown as QuestionSet,
};
const requestId = runtimeRequestId("thread-1", "turn-1", "item-1");

describe("RuntimeInputBridge with the OpenCode proxy's questions", () => {
  it("creates upstream's runtime request and answers the proxy with the server's response as a submission", async () => {
    const { bridge, sent, events } = bridgeOf();
    await bridge.onOpencodeRequest("opencode-1", question);
    expect(events).toEqual([
      {
        eventType: "runtime_request.created",
        priority: 0,
        payload: {
          request: {
            schema: "paperclip.runtime_request.v2",
            requestKind: "runtime",
            requestId,
            type: "input",
            status: "pending",
            prompt: "OpenCode needs your input",
            input: OPENCODE_QUESTION,
            origin: {
              adapter: "opencode-server",
              provider: "opencode",
              method: "item/tool/requestUserInput",
            },
          },
        },
      },
    ]);
    const response = answers({ color: COLOR, why: WHY });
    expect(
      await bridge.resolve({ requestId, turnId: "t", response: answers({ color: {}, why: WHY }) }),
    ).toMatchObject({
      status: "failed",
      detail: "OpenCode runtime response failed: question response answer color is required",
    });
    expect(sent).toEqual([]);
    expect(await bridge.resolve({ requestId, turnId: "t", response })).toMatchObject({
      result: { status: "delivered", requestId },
    });
    expect(sent).toEqual([{ id: "opencode-1", result: { resolution: { action: "submit", response } } }]);
    expect(events.at(-1)).toEqual({
      eventType: "runtime_request.resolved",
      priority: 0,
      payload: { provider: "opencode", requestId, status: "delivered" },
    });
    expect(await bridge.resolve({ requestId, turnId: "t", response })).toMatchObject({
      detail: "OpenCode runtime response failed: runtime response has no pending Codex request",
    });
  });

  it("cancels an open question when its turn ends, and a repeat of one at once with a warning", async () => {
    const { bridge, sent, events } = bridgeOf();
    await bridge.onOpencodeRequest("opencode-1", question);
    await bridge.onOpencodeRequest("opencode-2", question);
    expect(sent).toEqual([{ id: "opencode-2", result: { resolution: { action: "cancel" } } }]);
    expect(events.at(-1)).toMatchObject({
      eventType: "provider.notice.recorded",
      payload: { severity: "warning" },
    });
    bridge.cancelPending();
    expect(sent.at(-1)).toEqual({ id: "opencode-1", result: { resolution: { action: "cancel" } } });
  });

  it("names OpenCode when there is no turn to resolve a request in", async () => {
    const { bridge } = bridgeOf(null);
    expect(await bridge.resolve({ requestId, turnId: "t", response: {} })).toMatchObject({
      detail: "cannot resolve a OpenCode runtime request outside an active turn",
    });
  });
});
