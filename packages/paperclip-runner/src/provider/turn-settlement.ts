import { PaperclipError } from "@paperclipai/errors";
import type { ProviderEvent, TurnTerminalStatus } from "./codex-notification-events.js";
import { codexTerminalEvents } from "./codex-terminal-events.js";
import type { ExecutorContext } from "./executor-context.js";
import { uncommittedSettlementEvents } from "./settlement-events.js";

/**
 * Ends the active turn: its terminal event, then the run's terminal suffix when a contract is
 * bound. The state is saved first, the turn over and its events recorded with it (the server's
 * transport reads the active turn from the state file once it sees the turn end, and would
 * otherwise stop a turn already over); a runner killed before they are committed leaves them
 * for its relaunch (`commitSettlement`).
 */
export async function settleTurn(
  ctx: ExecutorContext,
  status: TurnTerminalStatus,
  extra: Record<string, unknown> | null,
  event?: ProviderEvent,
): Promise<void> {
  const state = ctx.state();
  const turnId = state.activeProviderTurnId;
  if (turnId === null) return;
  ctx.settledTurnId = turnId;
  ctx.inputs.cancelPending();
  // What a sub-agent sent before its spawn completed goes with the turn (its own end judged it).
  ctx.earlyNotes.endTurn();
  const turnEvent: ProviderEvent = event ?? {
    eventType: `turn.${status}`,
    priority: 0,
    payload: { provider: state.config.provider, providerTurnId: turnId, status, ...extra },
  };
  // As upstream's runner: the run's proposed result, then the turn's terminal event, then the run's.
  const events: ProviderEvent[] = [turnEvent];
  if (state.completionContract !== null) {
    for (const suffix of codexTerminalEvents(
      state.config.provider,
      status,
      state.completionContract,
      state.terminalAuthority,
      state.lastAgentMessage,
    )) {
      if (suffix.eventType === "run.result.proposed") events.unshift(suffix);
      else events.push(suffix);
    }
  }
  ctx.update((current) => ({
    ...current,
    activeProviderTurnId: null,
    ambiguousTurnStartPending: false,
    lifecycle: current.lifecycle === "turn_active" ? "session_open" : current.lifecycle,
    settlingTurn: { providerTurnId: turnId, firstEventSeq: ctx.lastEventSeq + 1, events },
  }));
  await ctx.save();
  await commitSettlement(ctx);
}

/**
 * Commits what the settling turn's events durable mode does not hold yet, each exactly once
 * (all of them right after `settleTurn`'s save; after a kill, those the dead runner lost),
 * then forgets the settlement.
 */
export async function commitSettlement(ctx: ExecutorContext): Promise<void> {
  const settling = ctx.state().settlingTurn;
  if (settling === undefined || settling === null) return;
  await ctx.emitAll(uncommittedSettlementEvents(settling, ctx.lastEventSeq));
  ctx.update((current) => ({ ...current, settlingTurn: null }));
  await ctx.save();
}

export interface ProviderFailure {
  readonly code: string;
  readonly exitCode?: number | null;
  readonly lifecycle?: "provider_exited" | "reconciliation_required";
  /** The session.failed for this failure is committed already (a restart's exit): not a second one. */
  readonly sessionFailedCommitted?: boolean;
  /** Added to the diagnostic's payload. */
  readonly detail?: Record<string, unknown>;
}

/**
 * The provider is unusable: its group stopped at once, the failure reported
 * (`harness.diagnostic`, `session.failed`), pending tool calls settled, and the
 * active turn failed with its terminal. The thread is kept for a later resume.
 */
export async function providerFailed(
  ctx: ExecutorContext,
  error: unknown,
  failure: ProviderFailure,
): Promise<void> {
  const session = ctx.session;
  ctx.session = null;
  await session?.stop(0);
  const message = (
    error instanceof PaperclipError
      ? `${error.code}: ${error.message}`
      : String((error as Error)?.message ?? error)
  ).slice(0, 1000);
  const state = ctx.state();
  const { code } = failure;
  await ctx.emit({
    eventType: "harness.diagnostic",
    priority: 0,
    payload: { code, ...failure.detail, message },
  });
  if (failure.sessionFailedCommitted !== true) {
    await ctx.emit({
      eventType: "session.failed",
      priority: 0,
      payload: {
        provider: state.config.provider,
        providerSessionId: state.threadId,
        code,
        exitCode: failure.exitCode ?? null,
        message,
      },
    });
  }
  await ctx.tools.cancelPending("provider_failed");
  if (state.activeProviderTurnId !== null)
    await settleTurn(ctx, "failed", { code, providerTerminalObserved: false });
  ctx.update((current) => ({
    ...current,
    lifecycle: failure.lifecycle ?? "provider_exited",
    processId: null,
    processStartTime: null,
  }));
  await ctx.save();
}
