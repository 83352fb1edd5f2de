import { describe, expect, it } from "vitest";
import { codexNotificationEvents } from "./codex-notification-events.js";
import { classifyThreadIdentity } from "./codex-thread-identity.js";

const context = { provider: "codex", threadId: "thread-1", activeTurnId: "turn-2" };

describe("thread/compacted (Codex compacted the thread's context)", () => {
  it("becomes upstream's P1 context.compacted, named after the thread", () => {
    expect(
      codexNotificationEvents("thread/compacted", { threadId: "thread-1", turnId: "turn-2" }, context),
    ).toEqual({
      kind: "events",
      events: [
        {
          eventType: "context.compacted",
          priority: 1,
          payload: {
            schema: "paperclip.context.compacted.v1",
            compactionId: "thread-1",
            reason: "provider",
            preTokens: null,
            postTokens: null,
            sameSession: true,
          },
        },
      ],
    });
  });

  it("names a compaction without a usable thread id with upstream's fallback, and refuses another thread's", () => {
    const outcome = codexNotificationEvents("thread/compacted", {}, context);
    expect(outcome).toMatchObject({ events: [{ payload: { compactionId: "codex-compaction" } }] });
    // Another thread's compaction is told apart before it is mapped: a protocol failure.
    const identity = classifyThreadIdentity(
      "thread/compacted",
      { threadId: "thread-9" },
      "thread-1",
      new Set(),
    );
    expect(identity).toEqual({ kind: "mismatch", code: "thread_binding_mismatch" });
  });
});
