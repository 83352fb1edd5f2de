import { describe, expect, it } from "vitest";
import { goalSetRefusal } from "./session-goal-commands.js";

const OBJECTIVE = "session.goal.set objective must be nonblank and at most 4000 characters";
const BUDGET = "session.goal.set tokenBudget must be null or a positive integer";

describe("goalSetRefusal (upstream's checks of a session.goal.set payload)", () => {
  it("passes what Codex is asked for", () => {
    expect(goalSetRefusal({ objective: "ship it" })).toBeNull();
    expect(goalSetRefusal({ objective: "é".repeat(4000), status: "paused", tokenBudget: 10 })).toBeNull();
    expect(goalSetRefusal({ status: "complete" })).toBeNull();
    expect(goalSetRefusal({ tokenBudget: null })).toBeNull();
  });

  it("refuses in upstream's order and words", () => {
    expect(goalSetRefusal({})).toBe("session.goal.set requires objective, status, or tokenBudget");
    for (const objective of [null, 5, ["a"], "", "  ", "a".repeat(4001)])
      expect(goalSetRefusal({ objective, status: "bogus" })).toBe(OBJECTIVE);
    expect(goalSetRefusal({ status: null })).toBe("session.goal.set status must be a string");
    expect(goalSetRefusal({ status: "budgetLimited", tokenBudget: "x" })).toBe(
      "session.goal.set status is not supported by Codex",
    );
    for (const tokenBudget of [0, -1, 1.5, "x", [1]]) expect(goalSetRefusal({ tokenBudget })).toBe(BUDGET);
  });
});
