import { boundedMethod } from "./bounded-method.js";
import { expectedIdentity, identityFailure } from "./codex-identity-events.js";
import { identityFailed, onNotificationIdentity, onRequestIdentity } from "./codex-identity-inbound.js";
import { codexNotificationEvents, TURN_TERMINAL_METHODS } from "./codex-notification-events.js";
import { notificationThreadId, notificationTurnId } from "./codex-thread-identity.js";
import { delayedRequestAnswer, delayedRequestWarning, isDelayedRequest } from "./delayed-request.js";
import type { HeldNote } from "./early-descendant-notes.js";
import type { ExecutorContext } from "./executor-context.js";
import type { ProviderInbound } from "./json-rpc-peer.js";
import {
  isOpencodeNotification,
  isOpencodeRequest,
  onOpencodeRunResult,
  onOpencodeRuntimeRequest,
} from "./opencode-inbound.js";
import { providerProtocol } from "./provider-errors.js";
import { providerExitReason } from "./provider-process.js";
import { commitLateResumeNote, resumeNotificationEvent } from "./resume-notifications.js";
import { onGoalNotification } from "./session-goal-commands.js";
import { providerFailed, settleTurn } from "./turn-settlement.js";

/** Handles one message of the provider (in the executor's actor): a notification, a request, a violation or its exit. */
export async function handleProviderInbound(ctx: ExecutorContext, message: ProviderInbound): Promise<void> {
  // A failing runner leaves the provider and its state file to the next runner.
  if (ctx.killed || !ctx.bound || ctx.session === null) return;
  switch (message.kind) {
    case "violation":
      await providerFailed(ctx, message.error, { code: "provider_protocol_violation" });
      return;
    case "exit": {
      const exit = message.exit;
      const lifecycle = ctx.state().lifecycle;
      if (exit.kind === "exited" && (lifecycle === "session_open" || lifecycle === "turn_active")) {
        // Closing (restarts off): no event may follow the drain's answer; the next command or runner sees the exit.
        if (ctx.restartProvider !== null) await ctx.restartProvider(exit);
        return;
      }
      await providerFailed(ctx, new Error(providerExitReason(exit)), {
        code: "provider_exited",
        exitCode: exit.kind === "exited" ? exit.exitCode : null,
      });
      return;
    }
    case "request":
      await onRequest(ctx, message.id, message.method, message.params);
      return;
    case "notification":
      await onNotification(ctx, message.method, message.params);
      return;
  }
}

async function onRequest(
  ctx: ExecutorContext,
  id: string | number,
  method: string,
  params: Record<string, unknown>,
): Promise<void> {
  if (await onRequestIdentity(ctx, method, params)) return;
  if (isDelayedRequest(method, params, ctx.state())) {
    // As upstream's runner: answered (Codex waits for nothing more), then reported as a warning.
    const answer = delayedRequestAnswer(method);
    if (answer.kind === "result") ctx.session?.peer.respond(id, answer.result);
    else ctx.session?.peer.respondError(id, answer.code, answer.message);
    await onNotification(ctx, "warning", { message: delayedRequestWarning(boundedMethod(method)) });
    return;
  }
  if (method === "item/tool/call" || method === "item/tool/requestUserInput") {
    // A reused id (of a call or question still open) fails the provider: upstream's runner exits 1 on it.
    const violation =
      method === "item/tool/call"
        ? await ctx.tools.onCall(id, params)
        : await ctx.inputs.onRequest(id, params);
    if (violation !== null)
      await providerFailed(ctx, providerProtocol(violation), { code: "provider_protocol_violation" });
    return;
  }
  if (isOpencodeRequest(ctx, method)) {
    const warning = await onOpencodeRuntimeRequest(ctx, id, params);
    if (warning !== null) await onNotification(ctx, "warning", { message: warning });
    return;
  }
  // As upstream's runner: refused as an unknown method, then reported as the provider's own warning would be.
  ctx.session?.peer.respondError(id, -32601, "provider request is unavailable in this runner layer");
  await onNotification(ctx, "warning", { message: `unsupported Codex request ${boundedMethod(method)}` });
}

/**
 * A notification, with the notes of sub-agents whose spawn is not yet complete held back
 * (`early-descendant-notes.ts`) and judged again when their spawn completes or the turn ends.
 */
async function onNotification(
  ctx: ExecutorContext,
  method: string,
  params: Record<string, unknown>,
): Promise<void> {
  const { threadId: rootThreadId, descendantThreadIds, activeProviderTurnId } = ctx.state();
  if (rootThreadId === null) return handleNotification(ctx, method, params);
  const known = descendantThreadIds ?? [];
  if (ctx.earlyNotes.hold(method, params, rootThreadId, { has: (id) => known.includes(id) })) return;
  if (endsActiveTurn(method, params, rootThreadId, activeProviderTurnId)) {
    await judgeHeldNotes(ctx, ctx.earlyNotes.endTurn());
    if (ctx.session === null) return;
  }
  const spawnCompleted = ctx.earlyNotes.observe(method, params, rootThreadId);
  await handleNotification(ctx, method, params);
  if (spawnCompleted) await judgeHeldNotes(ctx, ctx.earlyNotes.take());
}

/** The root thread's terminal of its active turn (or of no turn named). */
function endsActiveTurn(
  method: string,
  params: Record<string, unknown>,
  rootThreadId: string,
  activeTurnId: string | null,
): boolean {
  const threadId = notificationThreadId(params);
  const turnId = notificationTurnId(params);
  return (
    TURN_TERMINAL_METHODS.has(method) &&
    (threadId === undefined || threadId === null || threadId === rootThreadId) &&
    (turnId === undefined || turnId === null || turnId === activeTurnId)
  );
}

/** Held notes, in their order, judged as if they came now; none once the session is gone. */
async function judgeHeldNotes(ctx: ExecutorContext, notes: readonly HeldNote[]): Promise<void> {
  for (const note of notes) {
    if (ctx.killed || ctx.session === null) return;
    await onNotification(ctx, note.method, note.params);
  }
}

async function handleNotification(
  ctx: ExecutorContext,
  method: string,
  params: Record<string, unknown>,
): Promise<void> {
  const held = ctx.deferredStartup;
  // Goal notifications answering a goal command (while a restart's facts are held) are the session's own.
  const ownGoalNote = held?.goalCommanded === true && method.startsWith("thread/goal/");
  if (held?.resume && !ownGoalNote) {
    const event = resumeNotificationEvent(ctx, held, method, params);
    if (event !== null) {
      held.events.push(event);
      return;
    }
  } else if (ctx.lateResumeNotes && (await commitLateResumeNote(ctx, method, params))) {
    return;
  }
  if (method === "thread/goal/updated" || method === "thread/goal/cleared") {
    await onGoalNotification(ctx, method, params);
    return;
  }
  if (await onNotificationIdentity(ctx, method, params)) return;
  const state = ctx.state();
  if (isOpencodeNotification(ctx, method)) {
    await onOpencodeRunResult(ctx, params);
    return;
  }
  const outcome = codexNotificationEvents(method, params, {
    provider: state.config.provider,
    threadId: state.threadId ?? "",
    activeTurnId: state.activeProviderTurnId,
    settledTurnId: ctx.settledTurnId,
  });
  // A resume's held startup facts come before anything else the provider reports.
  if (outcome.kind !== "ignored" && ctx.deferredStartup?.resume === true) await ctx.releaseStartup();
  switch (outcome.kind) {
    case "ignored":
      return;
    case "foreign":
      await identityFailed(
        ctx,
        identityFailure("turn_binding_mismatch", method, params, expectedIdentity(state)),
      );
      return;
    case "agent_message":
      ctx.update((current) => ({ ...current, lastAgentMessage: outcome.text }));
      await ctx.emitAll(outcome.events);
      return;
    case "events":
      await ctx.emitAll(outcome.events);
      return;
    case "terminal":
      ctx.lateResumeNotes = false;
      ctx.lastTurnCompletedGeneration = state.providerProcessGeneration;
      await settleTurn(ctx, outcome.status, null, outcome.event);
      await ctx.save();
      return;
  }
}
