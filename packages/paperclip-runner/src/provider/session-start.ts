import { createHash, randomUUID } from "node:crypto";
import { canonicalJson } from "../commands/canonical-json.js";
import type { ProviderEvent } from "./codex-notification-events.js";
import type { SessionDeps } from "./codex-session.js";
import type { ExecutorContext } from "./executor-context.js";
import { heldSession, takePrewarmed } from "./provider-prewarm.js";
import { type StartupContext, startupFacts } from "./provider-startup-facts.js";
import { heldAtStart, type StartupHold, withHeldRecords } from "./saved-startup-facts.js";
import { openedGoals } from "./session-goals.js";
import { type ProviderFailure, providerFailed } from "./turn-settlement.js";

/** What a step that would start a provider gets once the executor was killed: nothing, ever. */
const LEFT_UNANSWERED = new Promise<never>(() => undefined);

/**
 * Starts the provider and opens (or, with a stored thread, resumes) its thread;
 * returns upstream's startup facts (and the `session.resumed` a resume reports) for the caller to
 * commit where upstream does,
 * and, for a thread `session.open` started ("ensure"), the goal events its goal
 * probe yields. What it holds back (`hold`) is saved in `pendingEvents` by the save that records
 * the new provider (no write of its own before `session.started`), for the caller to hold as
 * `ctx.deferredStartup` (`holdSavedFacts`). A failure is reported (`providerFailed`) and rethrown.
 */
export async function startProviderSession(
  ctx: ExecutorContext,
  deps: Omit<SessionDeps, "onInbound">,
  trigger: StartupContext["trigger"],
  command: StartupContext["command"],
  hold: StartupHold,
  failure: Pick<ProviderFailure, "sessionFailedCommitted"> = {},
  probeGoals = true,
): Promise<{ facts: ProviderEvent[]; resumed: ProviderEvent; goalEvents: ProviderEvent[] }> {
  // A step queued behind the one running when the runner failed runs after `kill` returned:
  // a provider it started would outlive the runner, with a thread no state records. It is left
  // unanswered (the runner is failing): an answer journalled now would be replayed as its result.
  if (ctx.killed) return await LEFT_UNANSWERED;
  const state = ctx.state();
  const generation = state.providerProcessGeneration + 1;
  ctx.update((current) => ({ ...current, providerProcessGeneration: generation }));
  const { session, release } = takePrewarmed(ctx, state) ?? heldSession(ctx, deps);
  ctx.session = session;
  release();
  try {
    const opened = await session.open(state, probeGoals);
    // The goal probe went out right behind thread/start and answers within a round trip: waiting
    // for it lets one save hold the thread and its goals (identity is on the server's critical path).
    const opening =
      trigger === "ensure" && opened.goalProbe !== null ? openedGoals(await opened.goalProbe) : null;
    ctx.update((current) => ({
      ...current,
      lifecycle: current.activeProviderTurnId === null ? "session_open" : "turn_active",
      threadId: opened.threadId,
      // A fresh thread has no sub-agents yet; a resumed one keeps those it had.
      ...(current.threadId === opened.threadId ? {} : { descendantThreadIds: [] }),
      providerSessionId: opened.threadId,
      providerAccountSessionId: opened.accountSessionId,
      processId: opened.process.pid,
      processStartTime: opened.process.startTime,
      ...(opening === null ? {} : { goals: opening.goals }),
    }));
    const { runnerInstanceId, runId, normalizedSessionId, turnId, itemId } = ctx.identity;
    const facts = startupFacts(
      {
        generation,
        command,
        configurationFingerprint: `sha256:${createHash("sha256").update(canonicalJson(state.config)).digest("hex")}`,
        launchId: randomUUID(),
        origin: { itemId, normalizedSessionId, runId, runnerInstanceId, turnId },
        trigger,
        requestedThreadId: state.threadId,
      },
      opened.process.pid,
    );
    const resumed: ProviderEvent = {
      eventType: "session.resumed",
      priority: 0,
      payload: ctx.identityPayload(),
    };
    const held = heldAtStart(hold, facts, resumed);
    if (held.length > 0) ctx.update((current) => ({ ...current, ...withHeldRecords(current, held) }));
    await ctx.save();
    return { facts, resumed, goalEvents: opening?.events ?? [] };
  } catch (error) {
    await providerFailed(ctx, error, { code: "provider_start_failed", ...failure });
    throw error;
  }
}
