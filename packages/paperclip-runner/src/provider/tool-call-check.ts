import type { CodexProviderState } from "./codex-provider-state.js";

/** Upstream's bound on one tool value. */
export const MAX_TOOL_VALUE_BYTES = 1024 * 1024;

/**
 * A Codex `item/tool/call` taken (its call id, tool and input), or why not: an RPC error
 * (not this turn's call) or a refusal the provider sees.
 */
export type ToolCallCheck =
  | {
      readonly kind: "accepted";
      readonly callId: string;
      readonly operationId: string;
      readonly input: unknown;
    }
  | { readonly kind: "rpc-error"; readonly message: string }
  | { readonly kind: "refused"; readonly code: string; readonly message: string };

/**
 * Pure: the first reason the call is not taken, in upstream's order (another
 * thread or a settled turn, no valid callId or tool, a tool the run did not
 * authorize, an input over 1 MiB), or the call it accepts.
 */
export function checkToolCall(
  state: Pick<CodexProviderState, "threadId" | "activeProviderTurnId" | "authorizedTools">,
  params: Record<string, unknown>,
): ToolCallCheck {
  if (params.threadId !== state.threadId || params.turnId !== state.activeProviderTurnId) {
    return { kind: "rpc-error", message: "the tool call names another thread or a settled turn" };
  }
  const { callId, tool } = params;
  if (typeof callId !== "string" || callId.length === 0 || callId.length > 160 || typeof tool !== "string") {
    return {
      kind: "refused",
      code: "invalid_tool_call",
      message: "the tool call has no valid callId or tool",
    };
  }
  if (!state.authorizedTools.some((operation) => operation.operationId === tool)) {
    return {
      kind: "refused",
      code: "semantic_tool_unauthorized",
      message: `tool ${tool.slice(0, 160)} is not authorized for this run`,
    };
  }
  const input = params.arguments ?? {};
  if (Buffer.byteLength(JSON.stringify(input)) > MAX_TOOL_VALUE_BYTES) {
    return { kind: "refused", code: "invalid_tool_call", message: "the tool input exceeds 1 MiB" };
  }
  return { kind: "accepted", callId, operationId: tool, input };
}
