import { describe, expect, it } from "vitest";
import {
  answersRetained,
  closeRetains,
  type DrainFacts,
  type LastClose,
  nextLastClose,
  REOPEN_DRAINS_RETAINED,
  reopenDrained,
} from "./drain-answer.js";

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

describe("nextLastClose", () => {
  /**
   * The drains' answers (retained or not) along a sequence: a close of a session not closed yet
   * (`close-open`) or of one closed (`close-closed`), any other command, a drain.
   */
  function drainsBehind(steps: readonly ("close-open" | "close-closed" | "other" | "drain")[]): boolean[] {
    let last: LastClose = "nothing";
    const answers: boolean[] = [];
    for (const step of steps) {
      if (step === "drain") {
        answers.push(closeRetains(last));
        last = "nothing";
      } else last = nextLastClose(last, step !== "other", step === "close-open");
    }
    return answers;
  }

  it("retains behind the close of an open session, not behind the close right behind it", () => {
    expect(nextLastClose("nothing", true, true)).toBe("open-session");
    expect(nextLastClose("open-session", true, false)).toBe("behind-the-close");
    expect(closeRetains("open-session")).toBe(true);
    expect(closeRetains("behind-the-close")).toBe(false);
    expect(drainsBehind(["close-open", "close-closed", "drain"])).toEqual([false]);
  });

  it("retains behind a close of a closed session after a drain or another close, not after another command", () => {
    // The edges test's sequence with upstream's answers: destroy, drain, drain, close, drain, close, close, drain.
    expect(
      drainsBehind([
        "close-open",
        "drain",
        "drain",
        "close-closed",
        "drain",
        "close-closed",
        "close-closed",
        "drain",
      ]),
    ).toEqual([true, false, true, true]);
    expect(drainsBehind(["close-open", "other", "drain"])).toEqual([false]);
    expect(nextLastClose("closed-session", false, false)).toBe("nothing");
    expect(closeRetains("nothing")).toBe(false);
  });
});
