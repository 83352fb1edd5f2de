import { carriedRecords, recordEvent, uncommittedRecords } from "./carried-startup-facts.js";
import type { ExecutorContext } from "./executor-context.js";
import type { ProviderEvent } from "./provider-event.js";
import { holdSavedFacts } from "./saved-startup-facts.js";

/**
 * A suspend (or shutdown) while startup facts are held: as upstream's runner does, they are not
 * committed but saved in `pendingEvents` (with the goal state they lead to applied), before the
 * command is answered, for the next run's runner to hold and release (`holdCarriedStartup`).
 */
export async function carryHeldStartup(ctx: ExecutorContext): Promise<void> {
  const held = ctx.deferredStartup;
  if (held === null) return;
  ctx.deferredStartup = null;
  const goals = held.goals;
  ctx.update((current) => ({
    ...current,
    ...(goals === undefined ? {} : { goals }),
    ...carriedRecords(held.carried ?? [], held.events, current.nextProviderEventSeq ?? 1),
  }));
  await ctx.save();
}

/**
 * A restarted runner, before anything it emits: the facts the previous run carried and durable
 * mode does not hold yet (a runner killed while committing them left some committed), the state
 * rewritten to list only those before any new event moves durable mode's seq past its record.
 */
async function restoreCarried(ctx: ExecutorContext): Promise<ReturnType<typeof uncommittedRecords>> {
  const state = ctx.state();
  const releaseFirstSeq = state.pendingEventsReleaseFirstSeq ?? null;
  const records = uncommittedRecords(state.pendingEvents, releaseFirstSeq, ctx.lastEventSeq);
  if (releaseFirstSeq !== null) {
    ctx.update((current) => ({ ...current, pendingEvents: records, pendingEventsReleaseFirstSeq: null }));
    await ctx.save();
  }
  return records;
}

/**
 * Runs a restarted runner's recovery (`recover`, which returns the startup facts it holds back,
 * saved behind the carried records) with the facts the previous run carried (by a suspend, or
 * saved as they came by a runner killed since) held in front of them: all are then released together
 * by the same policy (`startup-release-policy.ts`).
 */
export async function holdCarriedStartup(
  ctx: ExecutorContext,
  commandId: string,
  recover: () => Promise<ProviderEvent[]>,
): Promise<void> {
  const carried = await restoreCarried(ctx);
  const held = await recover();
  const carriedEvents = carried.map(recordEvent);
  // A recovery that reconciled a lost turn committed its facts and holds only what Codex sends next.
  const recovering = ctx.deferredStartup;
  if (recovering !== null) {
    if (carried.length === 0) return;
    recovering.events.unshift(...carriedEvents);
    ctx.deferredStartup = { ...recovering, carried };
  } else if (carried.length > 0 || held.length > 0) {
    // The recovery saved its held facts behind the carried records: the state lists them all.
    holdSavedFacts(ctx, commandId, true);
  }
}
