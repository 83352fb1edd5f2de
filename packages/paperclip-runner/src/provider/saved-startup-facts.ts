import { carriedRecords, type PendingEventRecord, recordEvent } from "./carried-startup-facts.js";
import type { ExecutorContext } from "./executor-context.js";
import type { ProviderEvent } from "./provider-event.js";

/**
 * What a provider start holds back of what it reports: nothing (it is committed at once, after
 * a lost turn or a provider restart), its startup facts (a session.open's, a turn's restart of a
 * gone provider), or its facts then `session.resumed` (a clean resume).
 */
export type StartupHold = "none" | "facts" | "facts-then-resumed";

/** Pure: the events a provider start holds back, in upstream's order. */
export function heldAtStart(
  hold: StartupHold,
  facts: readonly ProviderEvent[],
  resumed: ProviderEvent,
): ProviderEvent[] {
  if (hold === "none") return [];
  return hold === "facts" ? [...facts] : [...facts, resumed];
}

/**
 * Pure: `pendingEvents` with `held` saved behind the records it lists, numbered on from
 * `nextProviderEventSeq`: as upstream's runner saves each held fact as it comes, so a runner
 * killed while they are held leaves them for the next run to commit (`startup-carry.ts`).
 */
export function withHeldRecords(
  state: { readonly pendingEvents: readonly PendingEventRecord[]; readonly nextProviderEventSeq?: number },
  held: readonly ProviderEvent[],
): { readonly pendingEvents: PendingEventRecord[]; readonly nextProviderEventSeq: number } {
  const listed = state.pendingEvents.map(recordEvent);
  return carriedRecords(state.pendingEvents, [...listed, ...held], state.nextProviderEventSeq ?? 1);
}

/**
 * Holds back the facts the state's `pendingEvents` lists (those a provider start just saved, behind
 * any held before it: a previous run's, whose own resume failed), for `commandId`: committed by the
 * release policy (`startup-release-policy.ts`), each once, and forgotten then
 * (`ExecutorContext.releaseStartup`). What was held in memory only (Codex's resume notes, the goal
 * state they lead to) stays held, behind them.
 */
export function holdSavedFacts(
  ctx: ExecutorContext,
  commandId: string,
  resume: boolean,
  ensured = false,
): void {
  const records = ctx.state().pendingEvents;
  const before = ctx.deferredStartup;
  const unsaved = before === null ? [] : before.events.slice(before.carried?.length ?? 0);
  const events = [...records.map(recordEvent), ...unsaved];
  ctx.deferredStartup =
    events.length === 0
      ? null
      : {
          commandId,
          events,
          resume,
          ...(ensured ? { ensured } : {}),
          carried: records,
          ...(before?.goals === undefined ? {} : { goals: before.goals }),
        };
}
