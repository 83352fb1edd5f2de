import { describe, expect, it } from "vitest";
import {
  capacityFailure,
  descendantEvent,
  identityFailure,
  unrelatedInformationEvent,
} from "./codex-identity-events.js";

const expected = { threadId: "thread-root", turnId: "turn-1" };

describe("upstream's identity diagnostics", () => {
  it("reports a descendant's progress with what was expected and what Codex named", () => {
    const params = { threadId: "child-1", turn: { id: "child-turn" } };
    expect(descendantEvent("turn/started", params, expected)).toEqual({
      eventType: "harness.diagnostic",
      priority: 1,
      payload: {
        code: "provider_notification_identity",
        classification: "descendant",
        method: "turn/started",
        expectedThreadId: "thread-root",
        expectedTurnId: "turn-1",
        receivedThreadId: "child-1",
        receivedTurnId: "child-turn",
      },
    });
  });

  it("repeats received ids bounded to 256 characters, the method as upstream bounds it, and malformed ids as null", () => {
    const params = { threadId: `é${"o".repeat(300)}`, turnId: 5 };
    expect(identityFailure("thread_binding_mismatch", "weird method é/x", params, expected)).toEqual({
      code: "thread_binding_mismatch",
      classification: "invalid_authoritative",
      message: "Codex rejected an event outside the active execution identity",
      recoverable: false,
      method: "weirdmethod/x",
      expectedThreadId: "thread-root",
      expectedTurnId: "turn-1",
      receivedThreadId: `é${"o".repeat(255)}`,
      receivedTurnId: null,
    });
  });

  it("notices another thread's information as upstream's warning", () => {
    expect(unrelatedInformationEvent().payload).toMatchObject({
      noticeId: "codex-warning",
      severity: "warning",
      category: "warning",
      scope: "turn",
      summary: "ignored unrelated provider information",
    });
  });

  it("reports the full child-thread inventory as upstream's resource_capacity failure", () => {
    const params = { thread: { id: "c-4096", parentThreadId: "thread-root" } };
    expect(capacityFailure("thread/started", params, expected)).toEqual({
      code: "provider_descendant_capacity_exhausted",
      classification: "resource_capacity",
      message:
        "Codex reached the child-thread inventory limit. Reconcile child work before continuing in a fresh provider session.",
      recoverable: false,
      method: "thread/started",
      expectedThreadId: "thread-root",
      receivedThreadId: "c-4096",
      limit: 4096,
    });
  });
});
