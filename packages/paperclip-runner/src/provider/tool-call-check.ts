import type { CodexProviderState } from "./codex-provider-state.js";
import { redactToolInput } from "./redact-tool-input.js";
import { inputMatchesSchema } from "./tool-input-schema.js";

/** Upstream's bound on one tool value. */
export const MAX_TOOL_VALUE_BYTES = 1024 * 1024;

/**
 * A Codex `item/tool/call` taken (its call id, tool and input, redacted), or why not: an RPC
 * error (not this turn's call), a refusal the provider sees, or a denial of a well-formed call
 * (a tool the run did not authorize, an input its schema refuses) that upstream reports as
 * `semantic_tool_denied`.
 */
export type ToolCallCheck =
  | {
      readonly kind: "accepted";
      readonly callId: string;
      readonly operationId: string;
      readonly input: unknown;
    }
  | { readonly kind: "rpc-error"; readonly message: string }
  | { readonly kind: "refused"; readonly code: string; readonly message: string }
  | {
      readonly kind: "denied";
      readonly callId: string;
      readonly operationId: string;
      readonly message: string;
    };

/**
 * Pure: the first reason the call is not taken, in upstream's order (another
 * thread or a settled turn, no valid callId or tool, a tool the run did not
 * authorize, an input over 1 MiB, an input its schema refuses), or the call it
 * accepts, its input redacted (upstream hands on no secret the model wrote).
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
  const operation = state.authorizedTools.find((authorized) => authorized.operationId === tool);
  if (operation === undefined) {
    return {
      kind: "denied",
      callId,
      operationId: tool.slice(0, 160),
      message: "Paperclip did not authorize this tool for the run",
    };
  }
  const input = params.arguments ?? {};
  if (Buffer.byteLength(JSON.stringify(input)) > MAX_TOOL_VALUE_BYTES) {
    return { kind: "refused", code: "invalid_tool_call", message: "the tool input exceeds 1 MiB" };
  }
  if (!inputMatchesSchema(operation.inputSchema, input)) {
    return {
      kind: "denied",
      callId,
      operationId: tool,
      message: `provider arguments for ${tool} failed JSON Schema validation`,
    };
  }
  return { kind: "accepted", callId, operationId: tool, input: redactToolInput(input) };
}
