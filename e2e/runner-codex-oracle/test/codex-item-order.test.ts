import { describe, expect, it } from "vitest";
import { withMessagesBeforeToolCallStart } from "../src/codex-item-order.js";
import type { CommittedEvent, ScenarioOutcome } from "../src/run-scenario.js";

const event = (eventType: string, payload: Record<string, unknown> = {}) =>
  ({ eventType, payload, priority: 0, sourceSeq: 0, sourceEventId: eventType }) as CommittedEvent;
const outcomeOf = (events: CommittedEvent[]) => ({ events }) as unknown as ScenarioOutcome;
const typesOf = (outcome: ScenarioOutcome) =>
  outcome.events.map((entry) => {
    const itemId = (entry.payload as { itemId?: string }).itemId;
    return itemId === undefined ? entry.eventType : `${entry.eventType}:${itemId}`;
  });

const message = (id: string) => [
  event("item.started", { kind: "agentMessage", itemId: id }),
  event("item.completed", { kind: "agentMessage", itemId: id }),
];

describe("withMessagesBeforeToolCallStart", () => {
  it("puts a message that came right after a tool call's start before it", () => {
    const moved = withMessagesBeforeToolCallStart(
      outcomeOf([
        event("turn.started"),
        event("tool.execution.started"),
        event("semantic_tool.input"),
        ...message("msg_3"),
        event("semantic_tool.result"),
      ]),
    );
    expect(typesOf(moved)).toEqual([
      "turn.started",
      "item.started:msg_3",
      "item.completed:msg_3",
      "tool.execution.started",
      "semantic_tool.input",
      "semantic_tool.result",
    ]);
  });

  it("leaves the message-first order, other items and a message split by other events as they are", () => {
    const events = [
      ...message("msg_1"),
      event("tool.execution.started"),
      event("semantic_tool.input"),
      event("item.started", { kind: "userMessage", itemId: "u" }),
      event("item.completed", { kind: "userMessage", itemId: "u" }),
      event("tool.execution.started"),
      event("item.started", { kind: "agentMessage", itemId: "msg_2" }),
      event("item.delta", { itemId: "msg_2" }),
      event("item.completed", { kind: "agentMessage", itemId: "msg_2" }),
    ];
    expect(typesOf(withMessagesBeforeToolCallStart(outcomeOf(events)))).toEqual(typesOf(outcomeOf(events)));
  });
});
