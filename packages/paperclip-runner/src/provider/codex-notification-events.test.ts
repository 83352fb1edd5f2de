import { describe, expect, it } from "vitest";
import { codexNotificationEvents, SETTLED_TURN_NOTICE } from "./codex-notification-events.js";
import { resumeUsageDiagnostic } from "./codex-usage-events.js";

const context = { provider: "codex", threadId: "thread-1", activeTurnId: "turn-2" };
const inTurn = (extra: Record<string, unknown>) => ({ threadId: "thread-1", turnId: "turn-2", ...extra });
const EMPTY_DIGEST = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

describe("codexNotificationEvents: upstream's notification to PRP mapping", () => {
  it("maps the turn lifecycle with P0 priority, the terminal status from turn.status and its error", () => {
    expect(
      codexNotificationEvents("turn/started", { threadId: "thread-1", turn: { id: "turn-2" } }, context),
    ).toEqual({
      kind: "events",
      events: [
        { eventType: "turn.started", priority: 0, payload: { provider: "codex", providerTurnId: "turn-2" } },
      ],
    });
    for (const status of ["completed", "failed", "interrupted"] as const) {
      const turn = { id: "turn-2", status, ...(status === "failed" ? { error: { message: "boom" } } : {}) };
      expect(codexNotificationEvents("turn/completed", { threadId: "thread-1", turn }, context)).toEqual({
        kind: "terminal",
        status,
        event: {
          eventType: `turn.${status}`,
          priority: 0,
          payload: {
            provider: "codex",
            providerTurnId: "turn-2",
            status,
            error: status === "failed" ? { message: "boom" } : null,
          },
        },
      });
    }
  });

  it("maps items (P2 started, P1 completed), keeps the agent's last message, and gives text null to items without text", () => {
    const item = { type: "agentMessage", id: "m1", text: "done" };
    expect(codexNotificationEvents("item/started", inTurn({ item }), context)).toMatchObject({
      kind: "events",
      events: [
        {
          eventType: "item.started",
          priority: 2,
          payload: { kind: "agentMessage", status: "running", channel: "progress" },
        },
      ],
    });
    expect(codexNotificationEvents("item/completed", inTurn({ item }), context)).toMatchObject({
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
    const user = { type: "userMessage", id: "u1", content: [] };
    expect(codexNotificationEvents("item/completed", inTurn({ item: user }), context)).toMatchObject({
      kind: "events",
      events: [{ payload: { kind: "userMessage", channel: "detail", text: null } }],
    });
  });

  it("maps tool items to paperclip.tool.execution.v1 (P2 started, P1 completed)", () => {
    const item = {
      type: "dynamicToolCall",
      id: "call_1",
      tool: "report_progress",
      status: "completed",
      durationMs: 12,
    };
    expect(codexNotificationEvents("item/completed", inTurn({ item }), context)).toEqual({
      kind: "events",
      events: [
        {
          eventType: "tool.execution.completed",
          priority: 1,
          payload: {
            schema: "paperclip.tool.execution.v1",
            executionId: "call_1",
            transport: "dynamic",
            operation: "unknown",
            name: "report_progress",
            target: null,
            namespace: null,
            readOnly: null,
            status: "completed",
            durationMs: 12,
            exitCode: null,
            progress: null,
            output: "",
            outputBytes: 0,
            outputTruncated: false,
            outputDigest: EMPTY_DIGEST,
          },
        },
      ],
    });
    const command = {
      type: "commandExecution",
      id: "c1",
      command: "ls",
      aggregatedOutput: "a\n",
      exitCode: 0,
    };
    expect(codexNotificationEvents("item/started", inTurn({ item: command }), context)).toMatchObject({
      events: [
        {
          eventType: "tool.execution.started",
          priority: 2,
          payload: {
            transport: "process",
            operation: "execute",
            status: "running",
            output: "a\n",
            outputBytes: 2,
          },
        },
      ],
    });
  });

  it("reports usage with upstream's measurement fields, and ignores a replayed snapshot of another turn", () => {
    const tokenUsage = {
      total: { inputTokens: 10, cachedInputTokens: 4, outputTokens: 3 },
      last: { inputTokens: 1, outputTokens: 1 },
    };
    const zero = { cacheWriteTokens: 0, activeSeconds: 0, requests: 0, providerCostUsd: 0 };
    expect(codexNotificationEvents("thread/tokenUsage/updated", inTurn({ tokenUsage }), context)).toEqual({
      kind: "events",
      events: [
        {
          eventType: "usage.reported",
          priority: 0,
          payload: {
            provider: "codex",
            model: null,
            providerSessionId: "thread-1",
            providerRequestId: null,
            cumulative: { inputTokens: 10, outputTokens: 3, cacheReadTokens: 4, ...zero },
            runDeltaAvailable: true,
            runDelta: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, ...zero },
          },
        },
      ],
    });
    const replayed = { threadId: "thread-1", turnId: "turn-1", tokenUsage };
    expect(codexNotificationEvents("thread/tokenUsage/updated", replayed, context)).toEqual({
      kind: "ignored",
    });
  });

  it("calls a notification for a turn of the thread that is not active foreign", () => {
    expect(
      codexNotificationEvents("turn/completed", { threadId: "thread-1", turn: { id: "turn-1" } }, context),
    ).toEqual({ kind: "foreign" });
    // The turn this runner settled last: noticed and ignored, as upstream's runner does.
    const late = { threadId: "thread-1", turn: { id: "turn-1" } };
    const notice = codexNotificationEvents("turn/completed", late, { ...context, settledTurnId: "turn-1" });
    expect(notice).toMatchObject({ kind: "events", events: [{ payload: { summary: SETTLED_TURN_NOTICE } }] });
  });

  it("records provider notices and plans in their published shapes, ignores what it does not know", () => {
    expect(codexNotificationEvents("warning", { message: "slow down" }, context)).toEqual({
      kind: "events",
      events: [
        {
          eventType: "provider.notice.recorded",
          priority: 0,
          payload: {
            schema: "paperclip.provider.notice.v1",
            noticeId: "codex-warning",
            severity: "warning",
            category: "warning",
            scope: "turn",
            recoverable: true,
            userActionable: true,
            summary: "slow down",
          },
        },
      ],
    });
    // Codex's "Reconnecting... 1/1" (a cut stream it retries) is still an unrecoverable error notice upstream.
    expect(
      codexNotificationEvents(
        "error",
        { error: { message: "Reconnecting... 1/1" }, willRetry: true },
        context,
      ),
    ).toMatchObject({
      kind: "events",
      events: [{ payload: { severity: "error", recoverable: false, userActionable: true } }],
    });
    const plan = [
      { step: "read", status: "completed" },
      { step: "write", status: "inProgress" },
    ];
    expect(codexNotificationEvents("turn/plan/updated", inTurn({ plan }), context)).toMatchObject({
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

  it("copies Codex's whole turn error into turn.failed, its texts bounded", () => {
    const error = {
      message: "stream failed",
      codexErrorInfo: { responseStreamDisconnected: { httpStatusCode: 500 } },
      additionalDetails: "x".repeat(5000),
      misalignment: null,
    };
    const outcome = codexNotificationEvents(
      "turn/completed",
      { threadId: "thread-1", turn: { id: "turn-2", status: "failed", error } },
      context,
    );
    expect(outcome).toMatchObject({ kind: "terminal", status: "failed" });
    const payload = (outcome as { event: { payload: Record<string, unknown> } }).event.payload;
    expect(payload.error).toEqual({
      message: "stream failed",
      codexErrorInfo: { responseStreamDisconnected: { httpStatusCode: 500 } },
      additionalDetails: `${"x".repeat(3988)}…[truncated]`,
      misalignment: null,
    });
  });

  it("marks errors and warnings user-actionable, other notices not (the shipped rule)", () => {
    const actionable = (method: string) => {
      const outcome = codexNotificationEvents(method, { message: "m" }, context);
      return outcome.kind === "events" ? outcome.events[0]?.payload.userActionable : undefined;
    };
    expect(actionable("error")).toBe(true);
    expect(actionable("warning")).toBe(true);
    expect(actionable("deprecationNotice")).toBe(false);
    expect(actionable("configWarning")).toBe(false);
  });

  it("turns the usage snapshot Codex replays on resume into upstream's diagnostic", () => {
    const params = {
      threadId: "thread-1",
      turnId: "turn-1",
      tokenUsage: { total: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 2 }, last: {} },
    };
    expect(resumeUsageDiagnostic(params)).toEqual({
      eventType: "harness.diagnostic",
      priority: 0,
      payload: {
        code: "codex_resume_usage_snapshot",
        classification: "resume_usage_snapshot",
        method: "thread/tokenUsage/updated",
        receivedThreadId: "thread-1",
        receivedTurnId: "turn-1",
        cumulative: {
          inputTokens: 10,
          outputTokens: 5,
          cacheReadTokens: 2,
          cacheWriteTokens: 0,
          activeSeconds: 0,
          requests: 0,
          providerCostUsd: 0,
        },
      },
    });
  });
});
