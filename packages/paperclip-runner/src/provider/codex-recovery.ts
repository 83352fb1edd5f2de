import { killStaleProcessGroup } from "../harness/process-identity.js";
import type { ProviderEvent } from "./codex-notification-events.js";
import { providerProcessOf } from "./codex-provider-state.js";
import type { SessionDeps } from "./codex-session.js";
import type { ExecutorContext } from "./executor-context.js";
import type { StartupContext } from "./provider-startup-facts.js";
import { startProviderSession } from "./session-start.js";
import { commitSettlement, settleTurn } from "./turn-settlement.js";

/** The lifecycles whose thread a restarted runner resumes. */
const RESUMABLE: ReadonlySet<string> = new Set(["session_open", "turn_active", "provider_exited"]);

/**
 * What a restart owes the dead runner before anything else, whether the session is resumed or
 * the run ends unresumed: its provider's group stopped (a runner killed with its watchdog leaves it
 * running), then the terminal events of a turn it settled and saved, lost with it, committed.
 * Starts no provider.
 */
export async function reapDeadRunner(ctx: ExecutorContext): Promise<void> {
  const stale = providerProcessOf(ctx.state());
  if (stale !== null) killStaleProcessGroup(stale);
  await commitSettlement(ctx);
}

/**
 * A restart, on the server's first command: the dead runner's provider is
 * stopped, the terminal events of a turn it had settled but not committed are
 * committed, an open session resumes its exact thread, and the turn it had
 * running is reconciled (still running, or failed with its terminal), in
 * upstream's order: `runner.reconciled`, the startup facts, `session.resumed`,
 * a failed `semantic_tool.result` for each call the lost turn left pending,
 * `session.reconciled`, then `turn.failed`.
 *
 * A session that had no turn running nor starting (a clean suspend, then the next run)
 * commits only `runner.reconciled` here; the startup facts and `session.resumed`
 * are saved in `pendingEvents` (`saved-startup-facts.ts`) and returned, for the caller to hold back until after the next command's own
 * events, as upstream's runner does with a session.open's facts (what Codex sends
 * while it resumes joins them: `resume-notifications.ts`).
 */
export async function recoverProviderSession(
  ctx: ExecutorContext,
  deps: Omit<SessionDeps, "onInbound">,
  command: StartupContext["command"],
): Promise<ProviderEvent[]> {
  const state = ctx.state();
  await reapDeadRunner(ctx);
  await ctx.emit({
    eventType: "runner.reconciled",
    priority: 0,
    payload: { outcome: "same_durable_session_resumed" },
  });
  if (!RESUMABLE.has(state.lifecycle) || state.threadId === null) return [];
  const previousTurnId = state.activeProviderTurnId;
  const clean = previousTurnId === null && !state.ambiguousTurnStartPending;
  let started: Awaited<ReturnType<typeof startProviderSession>>;
  try {
    started = await startProviderSession(
      ctx,
      deps,
      "restore",
      command,
      clean ? "facts-then-resumed" : "none",
    );
  } catch {
    return [];
  }
  const { facts, resumed } = started;
  if (clean) return [...facts, resumed];
  await ctx.emitAll(facts);
  await ctx.emit(resumed);
  // What Codex sends while it resumes (its usage snapshot, its goal) is held back until after the
  // next command's own events, as after a clean resume (`resume-notifications.ts`); upstream's
  // runner does so after a lost turn too.
  ctx.deferredStartup = { commandId: command?.commandId ?? "", events: [], resume: true };
  const session = ctx.session;
  if (session === null) return [];
  const stillActive =
    previousTurnId !== null && (await session.turnIsActive(ctx.state(), previousTurnId).catch(() => false));
  // A turn the dead runner asked for without learning its id died with its provider process.
  ctx.update((current) => ({
    ...current,
    ambiguousTurnStartPending: false,
    lifecycle: stillActive ? "turn_active" : current.lifecycle,
  }));
  if (previousTurnId !== null && !stillActive) await ctx.tools.failPending("provider_turn_lost", true);
  await ctx.save();
  await ctx.emit({
    eventType: "session.reconciled",
    priority: 0,
    payload: {
      activeProviderTurnId: stillActive ? previousTurnId : null,
      previousProviderTurnId: previousTurnId,
      provider: state.config.provider,
      providerSessionId: state.threadId,
    },
  });
  if (previousTurnId === null || stillActive) return [];
  await settleTurn(ctx, "failed", { providerTerminalObserved: false });
  await ctx.save();
  return [];
}
