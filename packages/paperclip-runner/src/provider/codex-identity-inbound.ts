import { addDescendants } from "./codex-descendants.js";
import {
  capacityFailure,
  descendantEvent,
  expectedIdentity,
  identityFailure,
  unrelatedInformationEvent,
} from "./codex-identity-events.js";
import { classifyThreadIdentity } from "./codex-thread-identity.js";
import type { ExecutorContext } from "./executor-context.js";
import { settleTurn } from "./turn-settlement.js";

/** The requests a Codex turn makes of the runner: only the root thread may make them. */
const TURN_REQUESTS = new Set(["item/tool/call", "item/tool/requestUserInput"]);

/**
 * Handles what a notification's thread says before its events are mapped, as upstream's runner:
 * a sub-agent (descendant) thread's notification becomes a `provider_notification_identity`
 * diagnostic, another thread's information a notice, a thread the session cannot own a protocol
 * failure; the root's collab tool calls teach it descendants. True when the notification is done.
 */
export async function onNotificationIdentity(
  ctx: ExecutorContext,
  method: string,
  params: Record<string, unknown>,
): Promise<boolean> {
  const state = ctx.state();
  if (state.threadId === null) return false;
  const known = state.descendantThreadIds ?? [];
  const identity = classifyThreadIdentity(method, params, state.threadId, {
    has: (threadId) => known.includes(threadId),
  });
  if (identity.kind === "own" && identity.learned.length === 0) return false;
  // A resume's held startup facts come before anything else the provider reports.
  if (ctx.deferredStartup?.resume === true) await ctx.releaseStartup();
  const expected = expectedIdentity(ctx.state());
  if (identity.kind === "mismatch") {
    await identityFailed(ctx, identityFailure(identity.code, method, params, expected));
    return true;
  }
  if (identity.kind === "unrelated") {
    await ctx.emit(unrelatedInformationEvent());
    return true;
  }
  if (identity.learned.length > 0) {
    const added = addDescendants(known, identity.learned);
    if (added.kind === "exhausted") {
      await identityFailed(ctx, capacityFailure(method, params, expected));
      return true;
    }
    ctx.update((current) => ({ ...current, descendantThreadIds: added.descendantThreadIds }));
    await ctx.save();
  }
  if (identity.kind === "own") return false;
  await ctx.emit(descendantEvent(method, params, expected));
  return true;
}

/**
 * A turn request (a tool call, a question) from any thread but the root is a protocol failure,
 * as upstream's: a descendant cannot supply the root's execution authority. True when failed.
 */
export async function onRequestIdentity(
  ctx: ExecutorContext,
  method: string,
  params: Record<string, unknown>,
): Promise<boolean> {
  const state = ctx.state();
  if (!TURN_REQUESTS.has(method) || state.threadId === null || params.threadId === state.threadId)
    return false;
  await identityFailed(
    ctx,
    identityFailure("thread_binding_mismatch", method, params, expectedIdentity(state)),
  );
  return true;
}

/**
 * The session's identity is broken: the provider's group stopped at once, the failure reported
 * (`harness.diagnostic`, repeated as the failed turn's `error`), pending tool calls settled, and
 * the session left for reconciliation. Unlike a provider failure, upstream reports no
 * `session.failed`: the provider did not fail, its messages cannot be trusted.
 */
export async function identityFailed(ctx: ExecutorContext, failure: Record<string, unknown>): Promise<void> {
  const session = ctx.session;
  ctx.session = null;
  await session?.stop(0);
  await ctx.emit({ eventType: "harness.diagnostic", priority: 0, payload: failure });
  await ctx.tools.cancelPending("provider_failed");
  const { code, message, recoverable } = failure;
  // Upstream's failed turn names no turn id (the server's transport takes the active one).
  const payload = {
    provider: ctx.state().config.provider,
    status: "failed",
    code,
    message,
    recoverable,
    error: failure,
  };
  await settleTurn(ctx, "failed", null, { eventType: "turn.failed", priority: 0, payload });
  ctx.update((current) => ({
    ...current,
    lifecycle: "reconciliation_required",
    processId: null,
    processStartTime: null,
  }));
  await ctx.save();
}
