import { readAuthorizedTools } from "./authorized-tools.js";
import type { ProviderEvent } from "./codex-notification-events.js";
import { readCodexProviderConfig } from "./codex-provider-config.js";
import { type CodexProviderState, preparedState } from "./codex-provider-state.js";
import type { SessionDeps } from "./codex-session.js";
import {
  APPLIED,
  applied,
  type CommandOutcome,
  executionFailed,
  readCompletionContract,
  rejected,
  sessionOpenResult,
} from "./command-outcome.js";
import type { ExecutorContext } from "./executor-context.js";
import { discardPrewarmed, type StartAhead } from "./provider-prewarm.js";
import type { StartupContext } from "./provider-startup-facts.js";
import { holdSavedFacts } from "./saved-startup-facts.js";
import {
  codexGoal,
  GOALS_AVAILABLE,
  GOALS_UNSUPPORTED,
  type GoalState,
  goalEvent,
  goalSnapshot,
  NO_GOALS,
} from "./session-goals.js";
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
  // As upstream's runner: a closed session is not prepared again.
  if (ctx.bound && ctx.state().lifecycle === "closed")
    return executionFailed("Codex provider session is already closed");
  if (ctx.bound && ctx.state().lifecycle !== "prepared") {
    return rejected("the provider session is already open");
  }
  const previous = ctx.bound ? ctx.state() : null;
  // As upstream's runner: a prepared run is prepared again only with the same tools, provider and contract.
  if (previous !== null && JSON.stringify(previous.authorizedTools) !== JSON.stringify(tools))
    return executionFailed(
      "run.prepare tool contract changed: authorized tool set changed across a durable session",
    );
  if (
    previous !== null &&
    comparedConfig(previous.config, previous.completionContract) !== comparedConfig(config, contract)
  )
    return executionFailed("Codex provider or completion contract changed across the durable run");
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

/**
 * Pure: what a second `run.prepare` must repeat. `includeSkillInstructions` is left out: upstream's
 * shipped runner does not read it (any JSON type prepares, a changed value too); ours forwards a
 * boolean to Codex, and the latest prepare's value is the one bound.
 */
function comparedConfig(config: CodexProviderState["config"], contract: unknown): string {
  return JSON.stringify([{ ...config, includeSkillInstructions: null }, contract]);
}

/** `session.open`: starts the provider on a new thread, or resumes the bound one. */
export async function openSession(
  ctx: ExecutorContext,
  sessionDeps: ProviderSessionDeps,
  command: StartupCommand,
): Promise<CommandOutcome> {
  const state = ctx.state();
  // As upstream's runner: a closed session is not opened again (a new run.prepare binds a new one).
  if (state.lifecycle === "closed") return executionFailed("Codex provider session is closed");
  // As upstream's runner: not while a turn runs (one a turn.start before session.open began too).
  if (state.activeProviderTurnId !== null)
    return executionFailed("cannot open a new Codex session while a provider turn is active");
  if (ctx.session !== null && state.lifecycle === "prepared") await markOpen(ctx);
  if (ctx.session !== null && ["prepared", "session_open", "turn_active"].includes(state.lifecycle)) {
    return await reopenSession(ctx, command);
  }
  ctx.restartsSinceTurnStart = 0;
  const resumed = state.threadId !== null;
  const started = await startProviderSession(
    ctx,
    sessionDeps,
    resumed ? "restore" : "ensure",
    command,
    "facts",
  );
  // A resumed thread's goal API is probed too, as upstream's session.open does.
  const goalEvents = resumed ? await probeGoals(ctx) : started.goalEvents;
  await ctx.emitAll([
    {
      eventType: resumed ? "session.resumed" : "session.started",
      priority: 0,
      payload: ctx.identityPayload(),
    },
    ...goalEvents,
  ]);
  holdSavedFacts(ctx, command.commandId, false);
  // The session is open again: no longer as a turn.stop left it.
  ctx.stoppedByTurnStop = false;
  return applied(sessionOpenResult(ctx.state(), resumed ? "resumed" : "started"));
}

/**
 * `session.open` on a session whose provider runs: as upstream's runner, the thread is reported
 * resumed (`session.resumed`, result status `resumed`) and the goal API probed again
 * (`thread/goal/get`: `session.capabilities.updated`, `session.goal.snapshot` one revision on).
 * Startup facts still held by the first start (a first open's, a turn command's before session.open)
 * stay held as this open's: the server's drains then commit them as a plain open's
 * (`startup-release-policy.ts`), as upstream's do; those of a start after a turn.stop (a goal
 * command's) are committed behind this open's events instead (`held-startup-release.ts`).
 */
async function reopenSession(ctx: ExecutorContext, command: StartupCommand): Promise<CommandOutcome> {
  ctx.reopenedWithoutTurn = true;
  const held = ctx.deferredStartup;
  if (held !== null && (held.ensured !== true || !ctx.stoppedByTurnStop))
    ctx.deferredStartup = { ...held, commandId: command.commandId, ensured: false };
  // The session is open again: no longer as a turn.stop left it.
  ctx.stoppedByTurnStop = false;
  const goalEvents = await probeGoals(ctx);
  await ctx.emitAll([
    { eventType: "session.resumed", priority: 0, payload: ctx.identityPayload() },
    ...goalEvents,
  ]);
  return applied(sessionOpenResult(ctx.state(), "resumed"));
}

/**
 * `thread/goal/get` on the running provider (an error: goals unsupported), the goal state one
 * revision on, saved; resolves with `session.capabilities.updated` and `session.goal.snapshot`.
 */
async function probeGoals(ctx: ExecutorContext): Promise<ProviderEvent[]> {
  const state = ctx.state();
  const answer = await (ctx.session as NonNullable<ExecutorContext["session"]>)
    .request("thread/goal/get", { threadId: state.threadId })
    .catch(() => null);
  const working = state.activeProviderTurnId !== null;
  const goals: GoalState = {
    sessionGoals: answer === null ? GOALS_UNSUPPORTED : GOALS_AVAILABLE,
    goal: answer === null ? null : codexGoal(answer.goal, working),
    goalRevision: (state.goals ?? NO_GOALS).goalRevision + 1,
  };
  ctx.update((current) => ({ ...current, goals }));
  await ctx.save();
  return [
    {
      eventType: "session.capabilities.updated",
      priority: 0,
      schemaVersion: 2,
      payload: { sessionGoals: goals.sessionGoals },
    },
    goalEvent("session.goal.snapshot", goalSnapshot(goals, working)),
  ];
}

/**
 * A turn for a session whose provider is gone with the thread kept (a `turn.stop` ended it,
 * or it failed: `provider_exited`), or that was never opened (a new thread, as upstream's runner
 * starts for a `turn.start` or `turn.steer` with a text before `session.open`): the provider starts
 * again and resumes the thread first,
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
  // A provider running for a session still reported prepared: it is open for the command.
  if (ctx.session !== null && state.lifecycle === "prepared") {
    await markOpen(ctx);
    return;
  }
  const gone = state.lifecycle === "prepared" || state.lifecycle === "provider_exited";
  if (!gone || ctx.session !== null) return;
  // A session never opened has no thread: upstream's runner starts one for the command.
  if (state.threadId === null && state.lifecycle !== "prepared") return;
  // Upstream's runner probes no goals for a thread a command starts (session.open probes them).
  await startProviderSession(ctx, sessionDeps, "ensure", command, "facts", {}, false);
  holdSavedFacts(ctx, command.commandId, true, true);
}

async function markOpen(ctx: ExecutorContext): Promise<void> {
  ctx.update((current) => ({ ...current, lifecycle: "session_open" }));
  await ctx.save();
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
