import { describe, expect, it } from "vitest";
import { phaseAfterTurn, type RunPhase } from "./run-facts.js";

describe("phaseAfterTurn", () => {
  it("reopens the session when the running turn ends", () => {
    expect(phaseAfterTurn("turn_running")).toBe("session_open");
  });

  it("keeps every other phase, so a stop in progress is not undone", () => {
    const others: RunPhase[] = ["idle", "preparing", "prepared", "session_open", "stopping", "finished"];
    for (const phase of others) expect(phaseAfterTurn(phase)).toBe(phase);
  });
});
