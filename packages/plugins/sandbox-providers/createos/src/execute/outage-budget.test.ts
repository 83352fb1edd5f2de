import { describe, expect, it } from "vitest";
import { countsAgainstBudget, endsOutage } from "./outage-budget.js";

const policy = { stallTimeoutMs: 1_000, heartbeatsSeen: true };

describe("endsOutage", () => {
  it("is ended by new output", () => {
    expect(endsOutage({ advanced: true, aliveMs: 0, stalled: false }, policy)).toBe(true);
  });
  it("is ended by a connection alive for a whole stall window", () => {
    expect(endsOutage({ advanced: false, aliveMs: 1_000, stalled: false }, policy)).toBe(true);
  });
  it("is not ended by a short connection of heartbeats or duplicates", () => {
    expect(endsOutage({ advanced: false, aliveMs: 999, stalled: false }, policy)).toBe(false);
    expect(endsOutage({ advanced: false, aliveMs: 0, stalled: true }, policy)).toBe(false);
  });
});

describe("countsAgainstBudget", () => {
  it("counts drops, errors and stalls on a heartbeating server", () => {
    expect(countsAgainstBudget({ advanced: false, aliveMs: 0, stalled: false }, policy)).toBe(true);
    expect(countsAgainstBudget({ advanced: false, aliveMs: 0, stalled: true }, policy)).toBe(true);
  });
  it("does not count silence on a server that never sent a heartbeat", () => {
    const quiet = { ...policy, heartbeatsSeen: false };
    expect(countsAgainstBudget({ advanced: false, aliveMs: 0, stalled: true }, quiet)).toBe(false);
    expect(countsAgainstBudget({ advanced: false, aliveMs: 0, stalled: false }, quiet)).toBe(true);
  });
});
