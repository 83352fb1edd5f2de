import { applied, type CommandOutcome, executionFailed, rejected } from "./command-outcome.js";
import type { ExecutorContext } from "./executor-context.js";
import { providerRefusal } from "./provider-errors.js";
import { restartIfExited } from "./provider-restart.js";
import { providerFailed } from "./turn-settlement.js";

/** Upstream's bound on a turn's text (UTF-8 bytes). */
const MAX_TURN_TEXT_BYTES = 1024 * 1024;

/**
 * `turn.start`: `turn/start`, durable as ambiguous until Codex names the turn; `turn.accepted`,
 * committed before the answer but sent after it, as upstream's runner orders them (its window
 * between the two closes with the answer first: a kill there leaves the turn answered).
 */
export async function startTurn(
  ctx: ExecutorContext,
  payload: Record<string, unknown>,
): Promise<CommandOutcome> {
  const state = ctx.state();
  if (typeof payload.text !== "string") return executionFailed("turn.start payload.text is required");
  // Upstream's runner fails these (its refusals of the provider state), with its messages.
  if (state.activeProviderTurnId !== null)
    return executionFailed("Codex already has an active provider turn");
  if (state.ambiguousTurnStartPending)
    return executionFailed("Codex has an unresolved ambiguous provider turn start");
  // Upstream's bound on the turn text, checked after the turn state: Codex is not asked (text of
  // white space only is a turn).
  if (payload.text.length === 0 || Buffer.byteLength(payload.text) > MAX_TURN_TEXT_BYTES)
    return executionFailed("Codex turn/start failed: Codex turn text is empty or exceeds the 1 MiB limit");
  // A provider that died between turns, its exit not handled yet, is started again for this turn.
  await restartIfExited(ctx);
  const session = ctx.session;
  if (ctx.state().lifecycle === "closed") return executionFailed("Codex provider session is closed");
  if (session === null || ctx.state().lifecycle !== "session_open")
    return rejected("the provider session is not open");
  // Durable before the request: a crash from here on leaves an ambiguous start the next runner settles.
  ctx.update((current) => ({
    ...current,
    ambiguousTurnStartPending: true,
    lastAgentMessage: null,
    terminalAuthority: null,
  }));
  await ctx.save();
  let turnId: string;
  try {
    turnId = await session.startTurn(state, payload.text);
  } catch (error) {
    ctx.update((current) => ({ ...current, ambiguousTurnStartPending: false }));
    await providerFailed(ctx, error, { code: "provider_turn_start_failed" });
    throw error;
  }
  ctx.restartsSinceTurnStart = 0;
  ctx.reopenedWithoutTurn = false;
  // A turn accepted: Codex runs for the session again, not as a turn.stop left it.
  ctx.stoppedByTurnStop = false;
  ctx.update((current) => ({
    ...current,
    lifecycle: "turn_active",
    activeProviderTurnId: turnId,
    ambiguousTurnStartPending: false,
  }));
  await ctx.save();
  await ctx.emit(
    {
      eventType: "turn.accepted",
      priority: 0,
      payload: { provider: state.config.provider, providerSessionId: state.threadId, providerTurnId: turnId },
    },
    { afterAnswer: true },
  );
  return applied({ status: "accepted", providerTurnId: turnId });
}

/** `turn.steer`: `turn/steer` with the active turn as `expectedTurnId`. */
export async function steerTurn(
  ctx: ExecutorContext,
  payload: Record<string, unknown>,
): Promise<CommandOutcome> {
  const state = ctx.state();
  // `payload.mode` is not read: upstream's runner steers whatever mode the payload names.
  if (typeof payload.text !== "string") return executionFailed("turn.steer payload.text is required");
  const session = ctx.session;
  if (state.activeProviderTurnId === null || session === null)
    return executionFailed("Codex turn steer failed: Codex has no active provider turn");
  try {
    await session.request("turn/steer", {
      threadId: state.threadId,
      expectedTurnId: state.activeProviderTurnId,
      input: [{ type: "text", text: payload.text, text_elements: [] }],
    });
  } catch (error) {
    // Codex refused it (the turn ended before the runner saw its end): upstream's result, Codex's error quoted.
    const refused = providerRefusal(error);
    if (refused === null) throw error;
    const refusal = JSON.stringify({ code: refused.rpcCode, message: refused.providerMessage });
    return executionFailed(`Codex turn steer failed: Codex turn/steer failed: ${refusal}`);
  }
  return applied({ status: "steered" });
}

/**
 * `turn.interrupt` and `run.cancel`: pending tool calls failed and open questions answered empty,
 * then `turn/interrupt`; the terminal follows as events. As upstream's runner, the questions are
 * answered before the interrupt is sent: Codex may go on with the turn and complete it, its
 * notifications for the turn once settled (the interrupt's own terminal) noticed and ignored.
 */
export async function interruptTurn(ctx: ExecutorContext, reason: string): Promise<CommandOutcome> {
  const state = ctx.state();
  const turnId = state.activeProviderTurnId;
  const session = ctx.session;
  if (turnId === null || session === null) return applied({ status: "already_settled", reason });
  await ctx.tools.failPending("interrupted", false);
  ctx.inputs.cancelPending();
  await session.request("turn/interrupt", { threadId: state.threadId, turnId });
  return applied({ status: "interrupt_requested", reason, providerTurnId: turnId });
}

/**
 * `turn.stop`: kills the provider's group (no RPC) and retires the active turn, keeping the
 * thread for a resume. As upstream's runner, it commits no turn event (the server stops a turn this way only
 * to close the session) and answers with the command's name as the reason.
 */
export async function stopTurn(ctx: ExecutorContext): Promise<CommandOutcome> {
  const reason = "turn.stop";
  const turnId = ctx.state().activeProviderTurnId;
  await ctx.session?.stop();
  ctx.session = null;
  ctx.stoppedByTurnStop = ctx.state().lifecycle !== "closed";
  if (turnId !== null) {
    await ctx.tools.cancelPending("stopped");
    ctx.inputs.cancelPending();
  }
  ctx.update((current) => ({
    ...current,
    activeProviderTurnId: null,
    ambiguousTurnStartPending: false,
    // The provider is gone, the thread kept: the next turn.start starts it again and resumes it.
    lifecycle: current.lifecycle === "closed" ? "closed" : "prepared",
    processId: null,
    processStartTime: null,
  }));
  await ctx.save();
  if (turnId === null)
    return applied({
      status: "already_settled",
      providerTurnId: null,
      reason,
      interruptAccepted: false,
      providerExitConfirmed: true,
    });
  return applied({
    status: "stopped",
    providerTurnId: turnId,
    reason,
    interruptAccepted: false,
    providerExitConfirmed: true,
  });
}
