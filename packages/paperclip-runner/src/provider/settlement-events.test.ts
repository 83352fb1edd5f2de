import { describe, expect, it } from "vitest";
import type { ProviderEvent } from "./codex-notification-events.js";
import { uncommittedSettlementEvents } from "./settlement-events.js";

const event = (eventType: ProviderEvent["eventType"]): ProviderEvent => ({
  eventType,
  priority: 0,
  payload: {},
});
const settling = {
  providerTurnId: "turn-1",
  firstEventSeq: 11,
  events: [event("turn.completed"), event("run.result.proposed"), event("run.terminal")],
};
const types = (events: readonly ProviderEvent[]) => events.map((each) => each.eventType);

describe("uncommittedSettlementEvents", () => {
  it("keeps every event when the kill came before the first was committed", () => {
    expect(types(uncommittedSettlementEvents(settling, 10))).toEqual([
      "turn.completed",
      "run.result.proposed",
      "run.terminal",
    ]);
  });

  it("keeps only the events past the last committed seq", () => {
    expect(types(uncommittedSettlementEvents(settling, 11))).toEqual(["run.result.proposed", "run.terminal"]);
    expect(types(uncommittedSettlementEvents(settling, 12))).toEqual(["run.terminal"]);
  });

  it("keeps nothing once all were committed, even when later events followed", () => {
    expect(uncommittedSettlementEvents(settling, 13)).toEqual([]);
    expect(uncommittedSettlementEvents(settling, 20)).toEqual([]);
  });
});
