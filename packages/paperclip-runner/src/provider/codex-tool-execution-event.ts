import { createHash } from "node:crypto";
import { redactSecrets } from "@paperclipai/errors";
import { boundedText } from "./bounded-text.js";
import { itemStatus } from "./item-status.js";
import { type ProviderEvent, providerEvent, stableId } from "./provider-event.js";

/** The Codex item types that are tool executions, and their transport in `paperclip.tool.execution.v1`. */
export const TOOL_TRANSPORTS: Readonly<Record<string, "process" | "mcp" | "dynamic">> = {
  commandExecution: "process",
  mcpToolCall: "mcp",
  dynamicToolCall: "dynamic",
};
const TOOL_OUTPUT_MAX = 65_536;

/**
 * Pure: the `paperclip.tool.execution.v1` event of a Codex tool execution item (a command, an
 * MCP or dynamic tool call) starting or completing; its output bounded, redacted and digested.
 */
export function toolExecutionEvent(
  kind: string,
  item: Record<string, unknown>,
  started: boolean,
): ProviderEvent {
  const raw = typeof item.aggregatedOutput === "string" ? item.aggregatedOutput : "";
  const output = boundedToolOutput(raw);
  const name = item.tool ?? item.command ?? null;
  const duration = item.durationMs;
  const exitCode = item.exitCode;
  return providerEvent(started ? "tool.execution.started" : "tool.execution.completed", started ? 2 : 1, {
    schema: "paperclip.tool.execution.v1",
    // The published id form (the server refuses an event whose id breaks it), as upstream's runner forms it.
    executionId: stableId(item.id, "codex-item"),
    transport: TOOL_TRANSPORTS[kind],
    operation: kind === "commandExecution" ? "execute" : "unknown",
    name: typeof name === "string" ? boundedText(name) : null,
    target: null,
    namespace:
      typeof item.namespace === "string"
        ? item.namespace.slice(0, 240)
        : typeof item.server === "string"
          ? item.server.slice(0, 240)
          : null,
    // An MCP tool's own read-only hint, as upstream's runner reads it (Codex's other items carry none).
    readOnly: typeof item.readOnlyHint === "boolean" ? item.readOnlyHint : null,
    status: itemStatus(item.status, started),
    durationMs:
      typeof duration === "number" && Number.isSafeInteger(duration) && duration >= 0 ? duration : null,
    exitCode: typeof exitCode === "number" && Number.isSafeInteger(exitCode) ? exitCode : null,
    progress: null,
    output,
    outputBytes: Buffer.byteLength(raw),
    outputTruncated: output.length < raw.length,
    outputDigest: `sha256:${createHash("sha256").update(raw).digest("hex")}`,
  });
}

function boundedToolOutput(raw: string): string {
  return redactSecrets(raw).slice(0, TOOL_OUTPUT_MAX);
}
