import type { ProviderEvent } from "./codex-notification-events.js";

/** What Codex's goal API offers when `thread/goal/get` answers (upstream's capability object). */
const AVAILABLE = {
  actions: ["set", "pause", "resume", "clear"],
  autonomousUpdates: true,
  availability: "available",
  maxObjectiveChars: 4000,
  persistentAcrossResume: true,
  tokenBudgetControl: true,
  usageReporting: true,
};

const UNSUPPORTED = {
  actions: [],
  autonomousUpdates: false,
  availability: "unsupported",
  maxObjectiveChars: 4000,
  persistentAcrossResume: false,
  tokenBudgetControl: false,
  usageReporting: false,
  reasonCode: "provider_goal_api_unavailable",
  reason: "The provider did not answer thread/goal/get.",
};

/**
 * Pure: the PRP v2 events upstream's runner commits after `session.started`:
 * the session's goal capabilities and its goal snapshot, from the answer to
 * `thread/goal/get` (null when the provider refused it: goals unsupported).
 */
export function sessionGoalEvents(goalAnswer: Record<string, unknown> | null): ProviderEvent[] {
  const sessionGoals = goalAnswer === null ? UNSUPPORTED : AVAILABLE;
  const goal = goalAnswer?.goal ?? null;
  return [
    { eventType: "session.capabilities.updated", priority: 0, schemaVersion: 2, payload: { sessionGoals } },
    {
      eventType: "session.goal.snapshot",
      priority: 0,
      schemaVersion: 2,
      payload: {
        goal: goal !== null && typeof goal === "object" ? goal : null,
        revision: 1,
        schema: "paperclip.session_goal.snapshot.v1",
        sessionGoals,
        workingNow: false,
      },
    },
  ];
}
