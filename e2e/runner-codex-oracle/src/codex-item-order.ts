import type { CommittedEvent, ScenarioOutcome } from "./run-scenario.js";

const TOOL_CALL_START: ReadonlySet<string> = new Set(["tool.execution.started", "semantic_tool.input"]);

function isAgentMessage(event: CommittedEvent | undefined, eventType: string): boolean {
  return event?.eventType === eventType && (event.payload as { kind?: unknown }).kind === "agentMessage";
}

function sameItem(a: CommittedEvent | undefined, b: CommittedEvent | undefined): boolean {
  return (a?.payload as { itemId?: unknown })?.itemId === (b?.payload as { itemId?: unknown })?.itemId;
}

/**
 * The outcome with an agent message's `item.started`/`item.completed` pair placed before the
 * start of a tool call (`tool.execution.started`, `semantic_tool.input`) it came right after.
 *
 * When one model response holds a message and a dynamic tool call, Codex 0.156.1 sends the tool
 * call's `item/started` and its `item/tool/call` request from another task than the message's
 * item notifications, so the two orders occur run to run under either runner (both commit
 * Codex's lines in arrival order; a CI run of the `further` scenario had upstream's with the
 * message first and ours with the call first). Nothing the driver or the stub controls decides
 * it, so the comparison takes the two orders as one; each item's own events keep their order.
 * Pure.
 */
export function withMessagesBeforeToolCallStart(outcome: ScenarioOutcome): ScenarioOutcome {
  const events = [...outcome.events];
  for (let index = 0; index < events.length - 1; index += 1) {
    const [started, completed] = [events[index], events[index + 1]];
    if (!isAgentMessage(started, "item.started") || !isAgentMessage(completed, "item.completed")) continue;
    if (!sameItem(started, completed)) continue;
    let first = index;
    while (TOOL_CALL_START.has(events[first - 1]?.eventType ?? "")) first -= 1;
    if (first === index) continue;
    const pair = events.splice(index, 2);
    events.splice(first, 0, ...pair);
  }
  return { ...outcome, events };
}
