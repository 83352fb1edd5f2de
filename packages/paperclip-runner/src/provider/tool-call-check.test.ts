import { describe, expect, it } from "vitest";
import { checkToolCall } from "./tool-call-check.js";

const state = {
  threadId: "thread-1",
  activeProviderTurnId: "turn-1",
  authorizedTools: [{ operationId: "issues.comment", description: "", inputSchema: {}, responseSchema: {} }],
};
const call = {
  threadId: "thread-1",
  turnId: "turn-1",
  callId: "call-1",
  tool: "issues.comment",
  arguments: { body: "hi" },
};
const check = (params: Record<string, unknown>) => checkToolCall(state, params);

describe("checkToolCall", () => {
  it("accepts an authorized call of the active turn, its input defaulting to {}", () => {
    expect(check(call)).toEqual({
      kind: "accepted",
      callId: "call-1",
      operationId: "issues.comment",
      input: { body: "hi" },
    });
    expect(check({ ...call, arguments: undefined })).toMatchObject({ kind: "accepted", input: {} });
  });

  it("answers a call of another thread or a settled turn with an RPC error, before any other check", () => {
    const rpcError = { kind: "rpc-error", message: "the tool call names another thread or a settled turn" };
    expect(check({ ...call, threadId: "thread-2", callId: 7 })).toEqual(rpcError);
    expect(check({ ...call, turnId: "turn-0" })).toEqual(rpcError);
  });

  it("refuses a call without a valid callId or tool", () => {
    const invalid = {
      kind: "refused",
      code: "invalid_tool_call",
      message: "the tool call has no valid callId or tool",
    };
    for (const change of [{ callId: "" }, { callId: "c".repeat(161) }, { callId: 1 }, { tool: null }]) {
      expect(check({ ...call, ...change })).toEqual(invalid);
    }
  });

  it("denies a tool the run did not authorize, naming at most 160 characters of it", () => {
    expect(check({ ...call, tool: `x${"y".repeat(300)}` })).toEqual({
      kind: "denied",
      callId: "call-1",
      operationId: `x${"y".repeat(159)}`,
      message: "Paperclip did not authorize this tool for the run",
    });
  });

  it("denies an input its tool's schema refuses, with upstream's message", () => {
    const strict = {
      ...state,
      authorizedTools: [
        {
          ...state.authorizedTools[0]!,
          inputSchema: {
            type: "object",
            properties: { body: { type: "string" } },
            required: ["body"],
            additionalProperties: false,
          },
        },
      ],
    };
    expect(checkToolCall(strict, { ...call, arguments: { text: "no body" } })).toEqual({
      kind: "denied",
      callId: "call-1",
      operationId: "issues.comment",
      message: "provider arguments for issues.comment failed JSON Schema validation",
    });
    expect(checkToolCall(strict, call)).toMatchObject({ kind: "accepted" });
  });

  it("hands the input on with the secrets in it redacted", () => {
    const secret = `sk-proj-${"A1b2C3d4E5".repeat(4)}`;
    expect(check({ ...call, arguments: { body: `key ${secret}` } })).toMatchObject({
      kind: "accepted",
      input: { body: "key [REDACTED]" },
    });
  });

  it("refuses an input over 1 MiB", () => {
    expect(check({ ...call, arguments: { body: "b".repeat(1024 * 1024) } })).toEqual({
      kind: "refused",
      code: "invalid_tool_call",
      message: "the tool input exceeds 1 MiB",
    });
  });
});
