import { describe, expect, it } from "vitest";
import {
  clearedSnapshot,
  codexGoal,
  GOALS_AVAILABLE,
  goalSnapshot,
  openedGoals,
  resumedGoal,
} from "./session-goals.js";

const CODEX_GOAL = {
  threadId: "thread-1",
  objective: "Ship it",
  status: "budgetLimited",
  tokenBudget: 5000,
  tokensUsed: 5100,
  timeUsedSeconds: 12.5,
  createdAt: 1_796_188_173,
  updatedAt: 1_796_188_180,
};

describe("a Codex goal in PRP's shape", () => {
  it("spells the status as PRP does, writes the times to the second and counts elapsed time", () => {
    expect(codexGoal(CODEX_GOAL, true)).toEqual({
      completedAt: null,
      createdAt: "2026-12-02T05:09:33Z",
      elapsedSeconds: 12.5,
      iterations: 0,
      lastReason: null,
      objective: "Ship it",
      status: "budget_limited",
      tokenBudget: 5000,
      tokensUsed: 5100,
      updatedAt: "2026-12-02T05:09:40Z",
      workingNow: true,
    });
  });

  it("dates a complete goal's completion, and has no goal without an objective", () => {
    expect(codexGoal({ ...CODEX_GOAL, status: "complete" }, false)?.completedAt).toBe("2026-12-02T05:09:40Z");
    expect(codexGoal({ ...CODEX_GOAL, objective: "  " }, false)).toBeNull();
    expect(codexGoal(null, false)).toBeNull();
  });
});

describe("goal snapshots", () => {
  it("start at revision 1 after the open probe, with the capabilities first", () => {
    const { goals, events } = openedGoals({ goal: null });
    expect(goals).toEqual({ sessionGoals: GOALS_AVAILABLE, goal: null, goalRevision: 1 });
    expect(events.map((event) => [event.eventType, event.schemaVersion, event.priority])).toEqual([
      ["session.capabilities.updated", 2, 0],
      ["session.goal.snapshot", 2, 0],
    ]);
    expect(events[1]?.payload).toEqual(goalSnapshot(goals, false));
  });

  it("say goals are unsupported when the provider refused the probe", () => {
    const { goals } = openedGoals(null);
    expect(goals.sessionGoals).toMatchObject({ availability: "unsupported", actions: [] });
  });

  it("mark a cleared goal", () => {
    const goals = { sessionGoals: GOALS_AVAILABLE, goal: null, goalRevision: 4 };
    expect(clearedSnapshot(goals, false)).toEqual({
      cleared: true,
      goal: null,
      requestId: null,
      revision: 4,
      schema: "paperclip.session_goal.snapshot.v1",
      sessionGoals: GOALS_AVAILABLE,
      workingNow: false,
    });
  });

  it("takes a goal notification of a resume as a plain snapshot one revision on, even when nothing changed", () => {
    const previous = { sessionGoals: GOALS_AVAILABLE, goal: null, goalRevision: 1 };
    const cleared = resumedGoal(previous, "thread/goal/cleared", { threadId: "thread-1" });
    expect(cleared.goals).toEqual({ ...previous, goalRevision: 2 });
    expect(cleared.event).toEqual({
      eventType: "session.goal.cleared",
      priority: 0,
      schemaVersion: 2,
      payload: {
        goal: null,
        revision: 2,
        schema: "paperclip.session_goal.snapshot.v1",
        sessionGoals: GOALS_AVAILABLE,
        workingNow: false,
      },
    });
    const updated = resumedGoal(cleared.goals, "thread/goal/updated", { goal: CODEX_GOAL });
    expect(updated.event.eventType).toBe("session.goal.updated");
    expect(updated.goals.goal).toEqual(codexGoal(CODEX_GOAL, false));
    expect(updated.event.payload.revision).toBe(3);
  });
});
