import { readAuthorizedTools } from "./authorized-tools.js";
import { readCodexProviderConfig } from "./codex-provider-config.js";
import { type CodexProviderState, preparedState } from "./codex-provider-state.js";
import type { SessionDeps } from "./codex-session.js";
import {
  APPLIED,
  applied,
  type CommandOutcome,
  readCompletionContract,
  rejected,
  sessionOpenResult,
} from "./command-outcome.js";
import type { ExecutorContext } from "./executor-context.js";
import { discardPrewarmed, type StartAhead } from "./provider-prewarm.js";
import type { StartupContext } from "./provider-startup-facts.js";
import { holdSavedFacts } from "./saved-startup-facts.js";
import { startProviderSession } from "./session-start.js";
import { settleTurn } from "./turn-settlement.js";

/** The command a provider start is made for (its startup facts name it). */
export type StartupCommand = NonNullable<StartupContext["command"]>;

type ProviderSessionDeps = Omit<SessionDeps, "onInbound">;

/**
 * `run.prepare`: binds the provider, its tools and the completion contract; starts nothing,
 * unless a `session.open` already arrived behind it (its provider then starts, without a thread).
 */
export async function prepareSession(
  ctx: ExecutorContext,
  payload: Record<string, unknown>,
  startAhead: StartAhead,
  checkLaunchProfile: (state: CodexProviderState) => void,
): Promise<CommandOutcome> {
  const config = readCodexProviderConfig(payload.provider);
  const tools = readAuthorizedTools(payload.authorizedTools);
  const contract = readCompletionContract(payload.completionContract);
  if (ctx.bound && !["prepared", "closed"].includes(ctx.state().lifecycle)) {
    return rejected("the provider session is already open");
  }
  const previous = ctx.bound ? ctx.state() : null;
  // Facts a suspend carried here stay until committed, their numbering with them.
  const next = {
    ...preparedState(config, tools, contract),
    ...(previous === null
      ? {}
      : {
          pendingEvents: previous.pendingEvents,
          nextProviderEventSeq: previous.nextProviderEventSeq ?? 1,
        }),
  };
  checkLaunchProfile(next);
  ctx.bind(next);
  await discardPrewarmed(ctx);
  startAhead.start();
  await ctx.save();
  return applied({ status: "prepared", provider: config.provider, driver: config.driver });
}

/** `session.open`: starts the provider on a new thread, or resumes the bound one. */
export async function openSession(
  ctx: ExecutorContext,
  sessionDeps: ProviderSessionDeps,
  command: StartupCommand,
): Promise<CommandOutcome> {
  const state = ctx.state();
  if (ctx.session !== null && (state.lifecycle === "session_open" || state.lifecycle === "turn_active")) {
    return applied(sessionOpenResult(state, "started"));
  }
  ctx.restartsSinceTurnStart = 0;
  const resumed = state.threadId !== null;
  const { goalEvents } = await startProviderSession(
    ctx,
    sessionDeps,
    resumed ? "restore" : "ensure",
    command,
    "facts",
  );
  await ctx.emitAll([
    {
      eventType: resumed ? "session.resumed" : "session.started",
      priority: 0,
      payload: ctx.identityPayload(),
    },
    ...goalEvents,
  ]);
  holdSavedFacts(ctx, command.commandId, false);
  return applied(sessionOpenResult(ctx.state(), resumed ? "resumed" : "started"));
}

/**
 * A turn for a session whose provider is gone with the thread kept (a `turn.stop` ended it,
 * or it failed: `provider_exited`): the provider starts again and resumes the thread first,
 * as upstream's runner does after a `turn.stop` (startup trigger `ensure`, no
 * `session.resumed`); its startup facts follow the turn's acceptance, with what Codex sends
 * while it resumes.
 */
export async function ensureProvider(
  ctx: ExecutorContext,
  sessionDeps: ProviderSessionDeps,
  command: StartupCommand,
): Promise<void> {
  const state = ctx.state();
  const gone = state.lifecycle === "prepared" || state.lifecycle === "provider_exited";
  if (!gone || state.threadId === null || ctx.session !== null) return;
  await startProviderSession(ctx, sessionDeps, "ensure", command, "facts");
  holdSavedFacts(ctx, command.commandId, true);
}

/** `session.close` and `session.destroy`: the provider stopped, an active turn interrupted. */
export async function closeSession(ctx: ExecutorContext): Promise<CommandOutcome> {
  const state = ctx.state();
  await discardPrewarmed(ctx);
  await ctx.session?.stop();
  ctx.session = null;
  if (state.activeProviderTurnId !== null) await settleTurn(ctx, "interrupted", { reason: "session closed" });
  ctx.update((current) => ({
    ...current,
    lifecycle: "closed",
    processId: null,
    processStartTime: null,
  }));
  await ctx.save();
  await ctx.emit({
    eventType: "session.closed",
    priority: 0,
    payload: { provider: state.config.provider, providerSessionId: state.threadId },
  });
  return {
    status: "accepted",
    detail: APPLIED,
    result: { status: "closed", providerSessionId: state.threadId },
  };
}
