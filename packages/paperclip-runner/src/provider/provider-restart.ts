import type { ProviderEvent } from "./codex-notification-events.js";
import type { SessionDeps } from "./codex-session.js";
import type { ExecutorContext } from "./executor-context.js";
import { type ProviderExit, providerExitReason } from "./provider-process.js";
import { startProviderSession } from "./session-start.js";
import { providerFailed, settleTurn } from "./turn-settlement.js";

/**
 * How many times the provider is started again on its own between two accepted turns: a
 * provider that dies at every start is not restarted forever (the session then fails as
 * before, and the next turn.start reopens it).
 */
export const MAX_RESTARTS_BETWEEN_TURNS = 3;

/**
 * Pure: what upstream's runner commits when the provider exits on its own while its session is
 * open: `session.reconciled` when no turn is active and the last turn completed on the process
 * that exited (nothing was lost), else `session.failed`; `expected:false` either way.
 * `completedGeneration`: the process generation on which the last turn completed (null: none).
 */
export function providerExitedEvent(
  provider: string,
  processGeneration: number,
  exitCode: number | null,
  turnActive: boolean,
  completedGeneration: number | null,
): ProviderEvent {
  const previousTurnCompleted = !turnActive && completedGeneration !== null;
  const completedByExitedProcess = previousTurnCompleted && completedGeneration === processGeneration;
  return {
    eventType: completedByExitedProcess ? "session.reconciled" : "session.failed",
    priority: 0,
    payload: {
      activeProviderTurnId: null,
      code: "provider_exited",
      completedByExitedProcess,
      completedTurnProcessGeneration: previousTurnCompleted ? completedGeneration : null,
      exitCode,
      expected: false,
      previousTurnCompleted,
      processGeneration,
      provider,
    },
  };
}

/**
 * The provider exited on its own (killed from outside, crashed) while its session was open.
 * As upstream's runner: `session.failed`, then the provider starts again at once and resumes
 * the thread (startup facts with trigger `restore` and no command, `session.resumed`), its
 * runtime requests named under a new scope from sequence 1 (`RuntimeInputBridge.renewScope`); the
 * turn it had running is lost with it: its pending tool calls fail, `session.reconciled`
 * (also without a turn), `turn.failed` (and the run's terminal). The session stays open.
 * Past `MAX_RESTARTS_BETWEEN_TURNS`, or when the new provider cannot start, the session
 * fails as a provider failure (`providerFailed`).
 */
export async function restartExitedProvider(
  ctx: ExecutorContext,
  deps: Omit<SessionDeps, "onInbound">,
  exit: ProviderExit,
): Promise<void> {
  const exitCode = exit.kind === "exited" ? exit.exitCode : null;
  if (ctx.restartsSinceTurnStart >= MAX_RESTARTS_BETWEEN_TURNS) {
    await providerFailed(ctx, new Error(providerExitReason(exit)), { code: "provider_exited", exitCode });
    return;
  }
  ctx.restartsSinceTurnStart += 1;
  const exited = ctx.session;
  ctx.session = null;
  await exited?.stop(0);
  // The new process's runtime requests are named under a scope of their own, as upstream's.
  ctx.inputs.renewScope();
  // What the exited provider's start still held back (a session.open's facts) comes before its exit.
  await ctx.releaseStartup();
  const state = ctx.state();
  const previousTurnId = state.activeProviderTurnId;
  const exitedEvent = providerExitedEvent(
    state.config.provider,
    state.providerProcessGeneration,
    exitCode,
    previousTurnId !== null,
    ctx.lastTurnCompletedGeneration,
  );
  await ctx.emit(exitedEvent);
  ctx.update((current) => ({
    ...current,
    lifecycle: "provider_exited",
    processId: null,
    processStartTime: null,
  }));
  await ctx.save();
  let facts: ProviderEvent[];
  try {
    // One session.failed for the exit and the failed start: the exit's, when it was one.
    const sessionFailedCommitted = exitedEvent.eventType === "session.failed";
    facts = (await startProviderSession(ctx, deps, "restore", null, "none", { sessionFailedCommitted }))
      .facts;
  } catch {
    // Reported by startProviderSession (diagnostic, session.failed unless committed, the turn failed).
    return;
  }
  await ctx.emitAll(facts);
  await ctx.emit({ eventType: "session.resumed", priority: 0, payload: ctx.identityPayload() });
  // What Codex sends while it resumes (its usage snapshot, its goal) is held back until after the
  // next command's own events, as after a clean resume (`resume-notifications.ts`).
  ctx.deferredStartup = { commandId: "", events: [], resume: true };
  // The new provider never asked for them: nothing to answer it.
  if (previousTurnId !== null) await ctx.tools.failPending("provider_turn_lost", false);
  await ctx.emit({
    eventType: "session.reconciled",
    priority: 0,
    payload: {
      activeProviderTurnId: null,
      previousProviderTurnId: previousTurnId,
      provider: state.config.provider,
      providerSessionId: state.threadId,
    },
  });
  if (previousTurnId === null) return;
  await settleTurn(ctx, "failed", { providerTerminalObserved: false });
  await ctx.save();
}

/**
 * A provider found exited when a command is handled (its exit still queued behind the command,
 * or left unreported while the server was closing) is started again first, as if its exit had
 * come first, so the command finds the session open.
 */
export async function restartIfExited(ctx: ExecutorContext): Promise<void> {
  const exit = ctx.session?.exit ?? null;
  if (exit === null || exit.kind !== "exited" || ctx.restartProvider === null || !ctx.bound) return;
  const lifecycle = ctx.state().lifecycle;
  if (lifecycle === "session_open" || lifecycle === "turn_active") await ctx.restartProvider(exit);
}
