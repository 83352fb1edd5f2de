import { resumeUsageDiagnostic } from "./codex-usage-events.js";
import type { DeferredStartup, ExecutorContext } from "./executor-context.js";
import type { ProviderEvent } from "./provider-event.js";
import { goalsOf } from "./session-goal-commands.js";
import { resumedGoal } from "./session-goals.js";

/**
 * What Codex sends while it resumes a thread after a clean suspend, as upstream's runner
 * commits it: with the resume's startup facts, held back until the next command's own events.
 * The usage snapshot it replays of the thread's last (settled) turn becomes a diagnostic, its
 * goal notification the goal as Codex has it (the goal state it leads to is held back with it).
 * Returns the event to hold back, or null when the notification is not one of these (the caller
 * handles it as usual).
 */
export function resumeNotificationEvent(
  ctx: ExecutorContext,
  held: DeferredStartup,
  method: string,
  params: Record<string, unknown>,
): ProviderEvent | null {
  const state = ctx.state();
  if (params.threadId !== state.threadId) return null;
  if (method === "thread/tokenUsage/updated") {
    const turnId = params.turnId;
    return typeof turnId === "string" && turnId !== state.activeProviderTurnId
      ? resumeUsageDiagnostic(params)
      : null;
  }
  if (method !== "thread/goal/updated" && method !== "thread/goal/cleared") return null;
  const { goals, event } = resumedGoal(held.goals ?? goalsOf(state), method, params);
  held.goals = goals;
  return event;
}

/**
 * What Codex sends of its resume after the held facts were committed (`ctx.lateResumeNotes`),
 * committed at once as the same events. Returns whether the notification was one (a goal update
 * naming a turn is that turn's own). Its goal notification is the last it sends.
 */
export async function commitLateResumeNote(
  ctx: ExecutorContext,
  method: string,
  params: Record<string, unknown>,
): Promise<boolean> {
  if (method === "thread/goal/updated" && typeof params.turnId === "string") return false;
  const late: DeferredStartup = { commandId: "", events: [], resume: true };
  const event = resumeNotificationEvent(ctx, late, method, params);
  if (event === null) return false;
  const goals = late.goals;
  if (goals !== undefined) {
    ctx.lateResumeNotes = false;
    ctx.update((current) => ({ ...current, goals }));
    await ctx.save();
  }
  await ctx.emit(event);
  return true;
}
