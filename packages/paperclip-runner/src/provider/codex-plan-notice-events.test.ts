import { describe, expect, it } from "vitest";
import { codexNotificationEvents } from "./codex-notification-events.js";

const context: { provider: string; threadId: string; activeTurnId: string | null } = {
  provider: "codex",
  threadId: "thread-1",
  activeTurnId: "turn-2",
};
const idle = { ...context, activeTurnId: null };
const inTurn = (extra: Record<string, unknown>) => ({ threadId: "thread-1", turnId: "turn-2", ...extra });
const payloadOf = (outcome: ReturnType<typeof codexNotificationEvents>): Record<string, unknown> =>
  outcome.kind === "events" ? (outcome.events[0]?.payload ?? {}) : {};

describe("turn/plan/updated as upstream's runner records it", () => {
  it("leaves out steps without text, keeps the numbering, blocks failed steps, keeps Codex's revision", () => {
    const plan = [
      { step: "read", status: "completed" },
      null,
      { step: "   ", status: "pending" },
      { step: "deploy", status: "failed" },
      { step: "wait", status: "blocked" },
    ];
    expect(
      payloadOf(codexNotificationEvents("turn/plan/updated", inTurn({ plan, revision: 3 }), context)),
    ).toEqual({
      schema: "paperclip.plan.updated.v1",
      planId: "turn-2",
      revision: 3,
      explanation: null,
      steps: [
        { stepId: "step-1", body: "read", status: "completed" },
        { stepId: "step-4", body: "deploy", status: "blocked" },
        { stepId: "step-5", body: "wait", status: "blocked" },
      ],
      complete: false,
      syncStatus: "not_applicable",
      documentRevision: null,
    });
  });

  it("reads a revision that is not a positive integer as 1", () => {
    for (const revision of [0, -2, 1.5, "4", null])
      expect(
        payloadOf(codexNotificationEvents("turn/plan/updated", inTurn({ plan: [], revision }), context)),
      ).toMatchObject({
        revision: 1,
      });
  });
});

describe("Codex notices as upstream's runner records them", () => {
  it("calls every notice but an error a warning, scoped to the turn, a configuration warning to the environment", () => {
    const notice = (method: string, ctx = context) =>
      payloadOf(codexNotificationEvents(method, { message: "m" }, ctx));
    expect(notice("deprecationNotice")).toMatchObject({
      severity: "warning",
      scope: "turn",
      category: "deprecationNotice",
    });
    expect(notice("configWarning")).toMatchObject({ severity: "warning", scope: "environment" });
    expect(notice("warning", idle)).toMatchObject({ severity: "warning", scope: "turn" });
    expect(notice("error", idle)).toMatchObject({ severity: "error", scope: "turn", recoverable: false });
  });

  it("reads the first text of summary, message, details, else upstream's generic summary", () => {
    const summary = (params: Record<string, unknown>) =>
      payloadOf(codexNotificationEvents("deprecationNotice", params, context)).summary;
    expect(summary({ summary: "s", message: "m" })).toBe("s");
    expect(summary({ summary: " ", details: "d" })).toBe("d");
    expect(summary({})).toBe("Provider notice");
    expect(summary({ message: 5 })).toBe("Provider notice");
  });
});

describe("tool items' read-only hint", () => {
  it("carries an MCP tool's boolean readOnlyHint as readOnly, anything else as null", () => {
    const readOnly = (readOnlyHint: unknown) =>
      payloadOf(
        codexNotificationEvents(
          "item/started",
          inTurn({ item: { type: "mcpToolCall", id: "t1", server: "docs", tool: "search", readOnlyHint } }),
          context,
        ),
      ).readOnly;
    expect(readOnly(true)).toBe(true);
    expect(readOnly(false)).toBe(false);
    expect(readOnly("yes")).toBeNull();
  });
});
