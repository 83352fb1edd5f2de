import { describe, expect, it } from "vitest";
import {
  closeSteps,
  commandOf,
  driveCodexRunner,
  openSteps,
  providerRequests,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";

const toolchain = serverToolchainForFile();

/** The fake app-server's clock for goals (epoch seconds), as PRP writes it. */
const GOAL_TIME = new Date(1_796_000_000 * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");

const queue = (type: string, id: string, payload: Record<string, unknown> = {}) =>
  [
    { op: "queue", type, id, payload },
    { op: "command", id },
  ] as const;

describe("session goals (PRP command v2) through the server's control plane", { timeout: 120_000 }, () => {
  it("gets, sets, follows and clears the thread's goal, each change one event; a budget increase is not Codex's, warm attach is refused", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work),
        ...queue("session.goal.get", "get-empty"),
        ...queue("session.goal.set", "set", { objective: "Ship it", status: "paused", tokenBudget: 5000 }),
        { op: "queue", type: "turn.start", payload: { text: "goal-progress" }, id: "turn" },
        { op: "event", type: "turn.completed" },
        ...queue("session.goal.get", "get"),
        ...queue("session.goal.clear", "clear"),
        ...queue("session.budget.increase", "budget", { maxSessionListCostUsd: 5 }),
        ...queue("run.attach", "attach", { provider: { kind: "codex" } }),
        ...queue("session.snapshot", "snapshot"),
        ...closeSteps,
      ]);
      expect(result.failure).toBeNull();
      expect(result.invalid).toEqual([]);
      const goalEvents = result.committed.filter((event) => event.eventType.startsWith("session.goal."));
      expect(goalEvents.map((event) => [event.eventType, event.payload.revision, event.priority])).toEqual([
        ["session.goal.snapshot", 1, 0],
        ["session.goal.snapshot", 2, 0],
        ["session.goal.updated", 3, 0],
        ["session.goal.updated", 4, 0],
        ["session.goal.snapshot", 5, 0],
        ["session.goal.cleared", 6, 0],
      ]);
      const goal = {
        completedAt: null,
        createdAt: GOAL_TIME,
        elapsedSeconds: 0,
        iterations: 0,
        lastReason: null,
        objective: "Ship it",
        status: "paused",
        tokenBudget: 5000,
        tokensUsed: 0,
        updatedAt: GOAL_TIME,
        workingNow: false,
      };
      expect(commandOf(result, "get-empty")?.result.result).toMatchObject({ goal: null, revision: 2 });
      expect(commandOf(result, "set")?.result.result).toEqual({
        status: "accepted",
        snapshot: {
          goal,
          revision: 3,
          schema: "paperclip.session_goal.snapshot.v1",
          sessionGoals: expect.objectContaining({ availability: "available" }),
          workingNow: false,
        },
      });
      // Codex's own update during the turn (it names the turn): the goal is being worked on.
      expect(goalEvents[3]?.payload).toMatchObject({
        goal: { ...goal, tokensUsed: 150, elapsedSeconds: 2, workingNow: true },
        workingNow: true,
      });
      expect(commandOf(result, "get")?.result.result).toMatchObject({
        goal: { tokensUsed: 150 },
        revision: 5,
      });
      expect(commandOf(result, "clear")?.result.result).toMatchObject({
        status: "accepted",
        snapshot: { cleared: true, goal: null, requestId: null, revision: 6 },
      });
      expect(commandOf(result, "budget")).toMatchObject({
        status: "completed",
        result: {
          result: {
            status: "rejected",
            code: "provider_command_unavailable",
            message: "the Codex provider does not implement this command in the current layer",
          },
        },
      });
      // Warm attach is not implemented: refused (a completed result would let the server rotate the run).
      expect(commandOf(result, "attach")?.status).toBe("rejected");
      expect(commandOf(result, "snapshot")?.result.result).toMatchObject({
        goal: null,
        goalRevision: 6,
        sessionGoals: { availability: "available" },
      });
      const threadId = commandOf(result, "open")?.result.result?.providerSessionId;
      expect(providerRequests(result, "thread/goal/set")).toEqual([
        { threadId, objective: "Ship it", status: "paused", tokenBudget: 5000 },
      ]);
      expect(providerRequests(result, "thread/goal/clear")).toEqual([{ threadId }]);
    });
  });
});
