import { describe, expect, it } from "vitest";
import { CompletedToolCalls } from "./completed-tool-calls.js";

const ANSWER = { success: true, contentItems: [{ type: "inputText", text: '{"recorded":true}' }] };
const inTurn = (activeProviderTurnId: string, settledToolCallIds: readonly string[] = ["call-1"]) => ({
  activeProviderTurnId,
  settledToolCallIds,
});

describe("CompletedToolCalls", () => {
  it("replays a completed call's answer for its id with the same input in the same turn", () => {
    const completed = new CompletedToolCalls();
    completed.record("turn-1", "call-1", { body: "same", nested: { a: 1, b: 2 } }, ANSWER);
    // Key order is not input: the canonical JSON decides.
    expect(completed.match(inTurn("turn-1"), "call-1", { nested: { b: 2, a: 1 }, body: "same" })).toEqual({
      kind: "replayed",
      answer: ANSWER,
    });
  });

  it("denies a completed call's id with another input, and a completed id of an earlier turn whatever its input", () => {
    const completed = new CompletedToolCalls();
    completed.record("turn-1", "call-1", { body: "first" }, ANSWER);
    expect(completed.match(inTurn("turn-1"), "call-1", { body: "second" })).toEqual({
      kind: "denied",
      message: "provider replayed a completed tool call with different input",
    });
    expect(completed.match(inTurn("turn-2"), "call-1", { body: "first" })).toEqual({
      kind: "denied",
      message: "provider reused a completed tool call id",
    });
    // A new turn's first answer forgets the earlier turn's answers; the saved ids still deny.
    completed.record("turn-2", "call-2", { body: "next" }, ANSWER);
    expect(completed.match(inTurn("turn-2", ["call-1", "call-2"]), "call-1", { body: "first" })).toEqual({
      kind: "denied",
      message: "provider reused a completed tool call id",
    });
  });

  it("takes an id no call completed under as new, in the turn and after a restart (nothing in memory)", () => {
    const completed = new CompletedToolCalls();
    completed.record("turn-1", "call-1", { body: "first" }, ANSWER);
    expect(completed.match(inTurn("turn-1"), "call-2", { body: "first" })).toEqual({ kind: "new" });
    expect(new CompletedToolCalls().match(inTurn("turn-1", []), "call-1", {})).toEqual({ kind: "new" });
  });
});
