import type { ProviderEvent } from "./codex-notification-events.js";
import { ownEntry } from "./provider-event.js";

/** What a session's goal API offers (upstream's `sessionGoals` capability object). */
export type SessionGoals = Readonly<Record<string, unknown>>;

/** A goal as PRP v2 carries it (`paperclip.session_goal.snapshot.v1`'s `goal`). */
export interface SessionGoal {
  readonly completedAt: string | null;
  readonly createdAt: string | null;
  readonly elapsedSeconds: number;
  readonly iterations: number;
  readonly lastReason: string | null;
  readonly objective: string;
  readonly status: string;
  readonly tokenBudget: number | null;
  readonly tokensUsed: number;
  readonly updatedAt: string | null;
  readonly workingNow: boolean;
}

/** The goal part of the provider state: what the session offers, its goal, and the snapshot revision. */
export interface GoalState {
  readonly sessionGoals: SessionGoals;
  readonly goal: SessionGoal | null;
  readonly goalRevision: number;
}

/** Codex answered `thread/goal/get`: its goal API is there (upstream's capability object). */
export const GOALS_AVAILABLE: SessionGoals = {
  actions: ["set", "pause", "resume", "clear"],
  autonomousUpdates: true,
  availability: "available",
  maxObjectiveChars: 4000,
  persistentAcrossResume: true,
  tokenBudgetControl: true,
  usageReporting: true,
};

/** The provider refused `thread/goal/get` (OpenCode's proxy does): no goals. */
export const GOALS_UNSUPPORTED: SessionGoals = {
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

export const GOAL_SNAPSHOT_SCHEMA = "paperclip.session_goal.snapshot.v1";

/** Before the goal probe (or after a restart from a state that predates goals). */
export const NO_GOALS: GoalState = { sessionGoals: GOALS_UNSUPPORTED, goal: null, goalRevision: 0 };

/** Codex's camel-case goal statuses, as PRP spells them. */
const STATUS: Readonly<Record<string, string>> = {
  usageLimited: "usage_limited",
  budgetLimited: "budget_limited",
};

const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0;

/** Codex's epoch seconds (or an ISO string) as an RFC 3339 time to the second, as upstream writes it. */
function timestamp(value: unknown): string | null {
  const millis =
    typeof value === "number" ? value * 1000 : typeof value === "string" ? Date.parse(value) : Number.NaN;
  return Number.isFinite(millis) ? new Date(millis).toISOString().replace(/\.\d{3}Z$/, "Z") : null;
}

/**
 * Pure: a goal Codex reports (`thread/goal/get|set` answers, `thread/goal/updated`)
 * in PRP's shape, or null when there is none or it has no objective.
 */
export function codexGoal(value: unknown, workingNow: boolean): SessionGoal | null {
  if (value === null || typeof value !== "object") return null;
  const goal = value as Record<string, unknown>;
  if (typeof goal.objective !== "string" || goal.objective.trim() === "") return null;
  const status = typeof goal.status === "string" ? (ownEntry(STATUS, goal.status) ?? goal.status) : "active";
  const updatedAt = timestamp(goal.updatedAt);
  return {
    completedAt: status === "complete" ? (timestamp(goal.completedAt) ?? updatedAt) : null,
    createdAt: timestamp(goal.createdAt),
    elapsedSeconds: isCount(goal.timeUsedSeconds) ? goal.timeUsedSeconds : 0,
    iterations: isCount(goal.iterations) ? goal.iterations : 0,
    lastReason: typeof goal.lastReason === "string" ? goal.lastReason : null,
    objective: goal.objective,
    status,
    tokenBudget: isCount(goal.tokenBudget) ? goal.tokenBudget : null,
    tokensUsed: isCount(goal.tokensUsed) ? goal.tokensUsed : 0,
    updatedAt,
    workingNow,
  };
}

/** Pure: the snapshot PRP v2's goal events and the goal commands carry. */
export function goalSnapshot(goals: GoalState, workingNow: boolean): Record<string, unknown> {
  return {
    goal: goals.goal,
    revision: goals.goalRevision,
    schema: GOAL_SNAPSHOT_SCHEMA,
    sessionGoals: goals.sessionGoals,
    workingNow,
  };
}

/** Pure: a cleared goal's snapshot (`session.goal.cleared`, the clear command's result). */
export function clearedSnapshot(goals: GoalState, workingNow: boolean): Record<string, unknown> {
  return { cleared: true, ...goalSnapshot(goals, workingNow), requestId: null };
}

/** Pure: one goal event (PRP v2, priority 0). */
export function goalEvent(
  eventType: "session.goal.snapshot" | "session.goal.updated" | "session.goal.cleared",
  payload: Record<string, unknown>,
): ProviderEvent {
  return { eventType, priority: 0, schemaVersion: 2, payload };
}

/**
 * Pure: the goal state after the probe of a new thread (its answer to
 * `thread/goal/get`, null when refused) and the events upstream's runner
 * commits after `session.started`: the capabilities, then the first snapshot.
 */
export function openedGoals(goalAnswer: Record<string, unknown> | null): {
  readonly goals: GoalState;
  readonly events: ProviderEvent[];
} {
  const goals: GoalState = {
    sessionGoals: goalAnswer === null ? GOALS_UNSUPPORTED : GOALS_AVAILABLE,
    goal: goalAnswer === null ? null : codexGoal(goalAnswer.goal, false),
    goalRevision: 1,
  };
  return {
    goals,
    events: [
      {
        eventType: "session.capabilities.updated",
        priority: 0,
        schemaVersion: 2,
        payload: { sessionGoals: goals.sessionGoals },
      },
      goalEvent("session.goal.snapshot", goalSnapshot(goals, false)),
    ],
  };
}

/**
 * Pure: what a goal notification Codex sends while it resumes a thread makes of the goal
 * state, and the event upstream's runner commits for it with the resume's startup facts (even
 * when it repeats what the runner knew): the goal as Codex has it, one revision on, as a plain
 * snapshot (`session.goal.cleared` for `thread/goal/cleared`, else `session.goal.updated`).
 */
export function resumedGoal(
  previous: GoalState,
  method: "thread/goal/updated" | "thread/goal/cleared",
  params: Record<string, unknown>,
): { readonly goals: GoalState; readonly event: ProviderEvent } {
  const goals: GoalState = {
    ...previous,
    goal: method === "thread/goal/cleared" ? null : codexGoal(params.goal, false),
    goalRevision: previous.goalRevision + 1,
  };
  const eventType = method === "thread/goal/cleared" ? "session.goal.cleared" : "session.goal.updated";
  return { goals, event: goalEvent(eventType, goalSnapshot(goals, false)) };
}
