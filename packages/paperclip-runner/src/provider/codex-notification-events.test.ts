import { describe, expect, it } from "vitest";
import { boundedText, codexNotificationEvents } from "./codex-notification-events.js";

const context = { provider: "codex", threadId: "thread-1", activeTurnId: "turn-2", model: "mock-model" };

describe("codexNotificationEvents: upstream's notification to PRP mapping", () => {
  it("maps the turn lifecycle with P0 priority and the terminal status from turn.status", () => {
    expect(
      codexNotificationEvents("turn/started", { threadId: "thread-1", turn: { id: "turn-2" } }, context),
    ).toEqual({
      kind: "events",
      events: [
        { eventType: "turn.started", priority: 0, payload: { provider: "codex", providerTurnId: "turn-2" } },
      ],
    });
    for (const status of ["completed", "failed", "interrupted"] as const) {
      expect(
        codexNotificationEvents(
          "turn/completed",
          { threadId: "thread-1", turn: { id: "turn-2", status } },
          context,
        ),
      ).toEqual({
        kind: "terminal",
        status,
        event: {
          eventType: `turn.${status}`,
          priority: 0,
          payload: { provider: "codex", providerTurnId: "turn-2", status },
        },
      });
    }
  });

  it("maps items (P2 started, P1 completed) and keeps the agent's last message", () => {
    const item = { type: "agentMessage", id: "m1", text: "done" };
    expect(
      codexNotificationEvents("item/started", { threadId: "thread-1", turnId: "turn-2", item }, context),
    ).toMatchObject({
      kind: "events",
      events: [
        {
          eventType: "item.started",
          priority: 2,
          payload: { kind: "agentMessage", status: "running", channel: "progress" },
        },
      ],
    });
    expect(
      codexNotificationEvents("item/completed", { threadId: "thread-1", turnId: "turn-2", item }, context),
    ).toMatchObject({
      kind: "agent_message",
      text: "done",
      events: [
        {
          eventType: "item.completed",
          priority: 1,
          payload: { itemId: "m1", status: "completed", text: "done" },
        },
      ],
    });
    expect(
      codexNotificationEvents(
        "item/completed",
        {
          threadId: "thread-1",
          turnId: "turn-2",
          item: { type: "commandExecution", id: "c1", status: "failed" },
        },
        context,
      ),
    ).toMatchObject({
      kind: "events",
      events: [{ payload: { kind: "commandExecution", channel: "detail", status: "failed" } }],
    });
  });

  it("reports usage with upstream's measurement fields, and ignores a replayed snapshot of another turn", () => {
    const tokenUsage = {
      total: { inputTokens: 10, cachedInputTokens: 4, outputTokens: 3 },
      last: { inputTokens: 1, outputTokens: 1 },
    };
    expect(
      codexNotificationEvents(
        "thread/tokenUsage/updated",
        { threadId: "thread-1", turnId: "turn-2", tokenUsage },
        context,
      ),
    ).toEqual({
      kind: "events",
      events: [
        {
          eventType: "usage.reported",
          priority: 0,
          payload: {
            provider: "codex",
            model: "mock-model",
            providerSessionId: "thread-1",
            providerRequestId: null,
            cumulative: {
              inputTokens: 10,
              outputTokens: 3,
              cacheReadTokens: 4,
              cacheWriteTokens: 0,
              activeSeconds: 0,
              requests: 0,
              providerCostUsd: 0,
            },
            runDeltaAvailable: true,
            runDelta: {
              inputTokens: 1,
              outputTokens: 1,
              cacheReadTokens: 0,
              cacheWriteTokens: 0,
              activeSeconds: 0,
              requests: 0,
              providerCostUsd: 0,
            },
          },
        },
      ],
    });
    expect(
      codexNotificationEvents(
        "thread/tokenUsage/updated",
        { threadId: "thread-1", turnId: "turn-1", tokenUsage },
        context,
      ),
    ).toEqual({
      kind: "ignored",
    });
  });

  it("calls a notification for another thread or for a turn that is not active foreign", () => {
    expect(
      codexNotificationEvents("item/started", { threadId: "thread-9", turnId: "turn-2", item: {} }, context),
    ).toEqual({
      kind: "foreign",
      reason: "a item/started notification names another thread",
    });
    expect(
      codexNotificationEvents("turn/completed", { threadId: "thread-1", turn: { id: "turn-1" } }, context),
    ).toEqual({
      kind: "foreign",
      reason: "a turn/completed notification names a turn that is not active",
    });
  });

  it("records provider notices and plans in their published shapes, ignores what it does not know", () => {
    expect(codexNotificationEvents("warning", { message: "slow down" }, context)).toMatchObject({
      kind: "events",
      events: [
        {
          eventType: "provider.notice.recorded",
          priority: 0,
          payload: {
            schema: "paperclip.provider.notice.v1",
            severity: "warning",
            scope: "session",
            summary: "slow down",
          },
        },
      ],
    });
    expect(
      codexNotificationEvents(
        "turn/plan/updated",
        {
          threadId: "thread-1",
          turnId: "turn-2",
          plan: [
            { step: "read", status: "completed" },
            { step: "write", status: "inProgress" },
          ],
        },
        context,
      ),
    ).toMatchObject({
      kind: "events",
      events: [
        {
          eventType: "plan.updated",
          priority: 1,
          payload: {
            schema: "paperclip.plan.updated.v1",
            steps: [
              { stepId: "step-1", body: "read", status: "completed" },
              { stepId: "step-2", body: "write", status: "in_progress" },
            ],
            complete: false,
            syncStatus: "not_applicable",
          },
        },
      ],
    });
    expect(codexNotificationEvents("account/rateLimits/updated", {}, context)).toEqual({ kind: "ignored" });
  });

  it("bounds provider text to 4000 characters with secrets redacted", () => {
    expect(boundedText("x".repeat(5000))).toHaveLength(4000);
    expect(boundedText("token sk_live_abcdefghijklmnopqrstuv")).not.toContain("abcdefghijklmnop");
  });
});
