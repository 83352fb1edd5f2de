import { describe, expect, it } from "vitest";
import { answersRetained, type DrainFacts, REOPEN_DRAINS_RETAINED, reopenDrained } from "./drain-answer.js";

const nothing: DrainFacts = {
  startupHeld: false,
  closedByLastCommand: false,
  releasedOnThisDrain: false,
  reopenedWithoutTurn: false,
  drainsInARow: 1,
};

describe("answersRetained", () => {
  it("answers drained when nothing is held", () => {
    expect(answersRetained(nothing)).toBe(false);
  });

  it("answers retained for held facts, a close right behind, a commit on this drain", () => {
    for (const fact of ["startupHeld", "closedByLastCommand", "releasedOnThisDrain"] as const)
      expect(answersRetained({ ...nothing, [fact]: true, drainsInARow: 9 })).toBe(true);
  });

  it("answers a reopen retained on the first drain only, then converges", () => {
    const answers = [1, 2, 3, 4, 5].map((drainsInARow) =>
      answersRetained({ ...nothing, reopenedWithoutTurn: true, drainsInARow }),
    );
    expect(answers).toEqual([true, false, false, false, false]);
    expect(reopenDrained(REOPEN_DRAINS_RETAINED)).toBe(false);
    expect(reopenDrained(REOPEN_DRAINS_RETAINED + 1)).toBe(true);
  });
});
