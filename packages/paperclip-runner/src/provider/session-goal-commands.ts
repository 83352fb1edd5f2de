import type { CodexProviderState } from "./codex-provider-state.js";
import { applied, type CommandOutcome, executionFailed } from "./command-outcome.js";
import type { ExecutorContext } from "./executor-context.js";
import {
  clearedSnapshot,
  codexGoal,
  type GoalState,
  goalEvent,
  goalSnapshot,
  NO_GOALS,
  type SessionGoal,
} from "./session-goals.js";

/** The goal part of a state (a state saved before goals existed has none). */
export function goalsOf(state: CodexProviderState): GoalState {
  return state.goals ?? NO_GOALS;
}

/** What `session.goal.set` passes on to `thread/goal/set` (the thread is always the session's own). */
const SET_FIELDS = ["objective", "status", "tokenBudget"] as const;

/** The goal statuses upstream's runner lets a `session.goal.set` ask Codex for. */
const SETTABLE_STATUSES: readonly unknown[] = ["active", "paused", "complete"];

/** Upstream's bound on an objective, in characters (the capabilities' `maxObjectiveChars`). */
const MAX_OBJECTIVE_CHARS = 4000;

/**
 * Pure: why upstream's runner refuses a `session.goal.set` payload before asking Codex, in its
 * words and order (a field given as `null` counts as given), or null.
 */
export function goalSetRefusal(payload: Record<string, unknown>): string | null {
  const given = (field: string) => payload[field] !== undefined;
  if (!SET_FIELDS.some(given)) return "session.goal.set requires objective, status, or tokenBudget";
  const objective = payload.objective;
  if (
    given("objective") &&
    (typeof objective !== "string" || objective.trim() === "" || [...objective].length > MAX_OBJECTIVE_CHARS)
  )
    return `session.goal.set objective must be nonblank and at most ${MAX_OBJECTIVE_CHARS} characters`;
  if (given("status") && typeof payload.status !== "string")
    return "session.goal.set status must be a string";
  if (given("status") && !SETTABLE_STATUSES.includes(payload.status))
    return "session.goal.set status is not supported by Codex";
  const budget = payload.tokenBudget;
  if (given("tokenBudget") && budget !== null && !(Number.isInteger(budget) && (budget as number) > 0))
    return "session.goal.set tokenBudget must be null or a positive integer";
  return null;
}

const working = (state: CodexProviderState): boolean => state.activeProviderTurnId !== null;

/** Pure: whether two goals say the same (a notification repeating what a command already reported). */
function sameGoal(left: SessionGoal | null, right: SessionGoal | null): boolean {
  if (left === null || right === null) return left === right;
  return JSON.stringify({ ...left, workingNow: false }) === JSON.stringify({ ...right, workingNow: false });
}

/** The next revision of the goal state, kept and saved; resolves with it. */
async function advance(ctx: ExecutorContext, goal: SessionGoal | null): Promise<GoalState> {
  // Upstream's runner answers the next drain drained once a goal changed after a reopen.
  ctx.reopenedWithoutTurn = false;
  const goals = { ...goalsOf(ctx.state()), goal, goalRevision: goalsOf(ctx.state()).goalRevision + 1 };
  ctx.update((current) => ({ ...current, goals }));
  await ctx.save();
  return goals;
}

/** Upstream's refusal of a goal command with no provider session to ask (before session.open, say). */
const GOALS_UNAVAILABLE = "Codex session goals are unavailable for this provider session";

/**
 * The thread to ask, or null: no provider session, or one whose goal API was never found
 * available (a thread a turn.start or snapshot started before session.open is not probed).
 */
function threadOf(ctx: ExecutorContext): { threadId: string } | null {
  const state = ctx.state();
  if (goalsOf(state).sessionGoals.availability !== "available") return null;
  return ctx.session === null || state.threadId === null ? null : { threadId: state.threadId };
}

/** `session.goal.get` → `thread/goal/get`: the snapshot, also committed as `session.goal.snapshot`. */
export async function getGoal(ctx: ExecutorContext): Promise<CommandOutcome> {
  const thread = threadOf(ctx);
  if (thread === null) return executionFailed(GOALS_UNAVAILABLE);
  const answer = await ctx.session?.request("thread/goal/get", thread);
  const goals = await advance(ctx, codexGoal(answer?.goal, working(ctx.state())));
  const snapshot = goalSnapshot(goals, working(ctx.state()));
  await ctx.emit(goalEvent("session.goal.snapshot", snapshot));
  return applied(snapshot);
}

/** `session.goal.set` → `thread/goal/set` (set, pause, resume): `session.goal.updated` with the new snapshot. */
export async function setGoal(
  ctx: ExecutorContext,
  payload: Record<string, unknown>,
): Promise<CommandOutcome> {
  const thread = threadOf(ctx);
  if (thread === null) return executionFailed(GOALS_UNAVAILABLE);
  const refusal = goalSetRefusal(payload);
  if (refusal !== null) {
    // Upstream's runner commits held startup facts with the refusal (a valid set keeps them held),
    // then answers drains retained until two in a row (`releasedByRefusal`).
    if (ctx.deferredStartup !== null) ctx.releasedByRefusal = true;
    await ctx.releaseStartup();
    return executionFailed(refusal);
  }
  const params: Record<string, unknown> = { ...thread };
  for (const field of SET_FIELDS) if (payload[field] !== undefined) params[field] = payload[field];
  const answer = await ctx.session?.request("thread/goal/set", params);
  const goals = await advance(ctx, codexGoal(answer?.goal, working(ctx.state())));
  const snapshot = goalSnapshot(goals, working(ctx.state()));
  await ctx.emit(goalEvent("session.goal.updated", snapshot));
  return applied({ snapshot, status: "accepted" });
}

/** `session.goal.clear` → `thread/goal/clear`: `session.goal.cleared`. */
export async function clearGoal(ctx: ExecutorContext): Promise<CommandOutcome> {
  const thread = threadOf(ctx);
  if (thread === null) return executionFailed(GOALS_UNAVAILABLE);
  await ctx.session?.request("thread/goal/clear", thread);
  const snapshot = clearedSnapshot(await advance(ctx, null), working(ctx.state()));
  await ctx.emit(goalEvent("session.goal.cleared", snapshot));
  return applied({ snapshot, status: "accepted" });
}

/**
 * Codex's own goal notifications (`thread/goal/updated|cleared`, also sent after
 * the runner's own set and clear): a change becomes `session.goal.updated` or
 * `session.goal.cleared`; a repeat of what the session already reported is dropped.
 */
export async function onGoalNotification(
  ctx: ExecutorContext,
  method: "thread/goal/updated" | "thread/goal/cleared",
  params: Record<string, unknown>,
): Promise<void> {
  const state = ctx.state();
  if (params.threadId !== state.threadId) return;
  const current = goalsOf(state).goal;
  if (method === "thread/goal/cleared") {
    if (current === null) return;
    await ctx.emit(
      goalEvent("session.goal.cleared", clearedSnapshot(await advance(ctx, null), working(state))),
    );
    return;
  }
  const workingNow = typeof params.turnId === "string";
  const goal = codexGoal(params.goal, workingNow);
  if (sameGoal(goal, current)) return;
  await ctx.emit(goalEvent("session.goal.updated", goalSnapshot(await advance(ctx, goal), workingNow)));
}
