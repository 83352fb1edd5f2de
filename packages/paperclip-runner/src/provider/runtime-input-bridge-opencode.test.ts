import { describe, expect, it } from "vitest";
import { OPENCODE_QUESTION } from "../../test/helpers/opencode-question-refusals.js";
import { answers, COLOR, WHY } from "../../test/helpers/question-response-refusals.js";
import type { CodexProviderState } from "./codex-provider-state.js";
import type { QuestionSet } from "./codex-question-set.js";
import type { CodexSession } from "./codex-session.js";
import { MAX_PENDING_INPUT_BYTES } from "./pending-input-bytes.js";
import type { ProviderEvent } from "./provider-event.js";
import { MAX_PENDING_INPUTS, RuntimeInputBridge } from "./runtime-input-bridge.js";
import { runtimeRequestId } from "./runtime-request-id.js";

// The ids' scope fixed, so a test names them (upstream's draws it at random, as ours does by default).
const SCOPE = new Uint8Array(16);

function bridgeOf(active: string | null = "turn-1") {
  const sent: unknown[] = [];
  const events: ProviderEvent[] = [];
  const session = {
    peer: {
      respond: (id: string | number, result: unknown) => sent.push({ id, result }),
      respondError: (id: string | number, code: number, message: string) =>
        sent.push({ id, error: { code, message } }),
    },
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
    scope: SCOPE,
  });
  return { bridge, sent, events };
}

const question = {
  requestId: "que_1",
  turnId: "turn-1",
  questionSet: OPENCODE_QUESTION as unknown as QuestionSet,
  bytes: 1000,
};
const requestId = runtimeRequestId(SCOPE, "turn-1", "que_1", 1n);

/** The proxy's request `id` was refused for want of room, with upstream's error and warning. */
function expectCapacityRefused(sent: unknown[], events: ProviderEvent[], id: string): void {
  expect(sent).toEqual([
    {
      id,
      error: {
        code: -32000,
        message: "Paperclip rejected this runtime request because the pending input capacity was reached",
      },
    },
  ]);
  expect(events.at(-1)).toMatchObject({
    eventType: "provider.notice.recorded",
    payload: { summary: "rejected a Codex runtime request at the bounded pending-input limit" },
  });
}

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

  it("takes a repeated question as another request, as upstream's, and cancels both when the turn ends", async () => {
    const { bridge, sent, events } = bridgeOf();
    await bridge.onOpencodeRequest("opencode-1", question);
    await bridge.onOpencodeRequest("opencode-2", question);
    const ids = events.map((event) => (event.payload.request as { requestId: string }).requestId);
    expect(ids).toEqual([requestId, runtimeRequestId(SCOPE, "turn-1", "que_1", 2n)]);
    expect(sent).toEqual([]);
    bridge.cancelPending();
    expect(sent).toEqual(
      ["opencode-1", "opencode-2"].map((id) => ({ id, result: { resolution: { action: "cancel" } } })),
    );
  });

  it("refuses a question past 128 open ones with upstream's error and warning", async () => {
    const { bridge, sent, events } = bridgeOf();
    for (let index = 0; index <= MAX_PENDING_INPUTS; index += 1)
      await bridge.onOpencodeRequest(`opencode-${index}`, { ...question, requestId: `que_${index}` });
    expect(events.filter((event) => event.eventType === "runtime_request.created")).toHaveLength(128);
    expectCapacityRefused(sent, events, "opencode-128");
  });

  it("names OpenCode when there is no turn to resolve a request in", async () => {
    const { bridge } = bridgeOf(null);
    expect(await bridge.resolve({ requestId, turnId: "t", response: {} })).toMatchObject({
      detail: "cannot resolve a OpenCode runtime request outside an active turn",
    });
  });

  it("refuses a question past upstream's 4 MiB of open ones as past its count, and takes one once an answer frees room", async () => {
    const { bridge, sent, events } = bridgeOf();
    const quarter = { ...question, bytes: MAX_PENDING_INPUT_BYTES / 4 };
    for (const id of [1, 2, 3, 4]) await bridge.onOpencodeRequest(`opencode-${id}`, quarter);
    await bridge.onOpencodeRequest("opencode-5", { ...question, bytes: 1 });
    expectCapacityRefused(sent, events, "opencode-5");
    bridge.cancelPending();
    await bridge.onOpencodeRequest("opencode-6", quarter);
    expect(events.at(-1)?.eventType).toBe("runtime_request.created");
  });
});
