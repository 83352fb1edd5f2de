import type { ServerCommand } from "../durable/state/command-journal.js";
import type { CodexProviderState } from "./codex-provider-state.js";
import type { SessionDeps } from "./codex-session.js";
import {
  applied,
  attachRefused,
  type CommandOutcome,
  executionFailed,
  rejected,
  sessionSnapshot,
  unavailable,
} from "./command-outcome.js";
import type { ExecutorContext } from "./executor-context.js";
import type { StartAhead } from "./provider-prewarm.js";
import {
  closeSession,
  ensureProvider,
  openSession,
  prepareSession,
  type StartupCommand,
} from "./session-commands.js";
import { clearGoal, getGoal, goalsOf, setGoal } from "./session-goal-commands.js";
import { interruptTurn, startTurn, steerTurn, stopTurn } from "./turn-commands.js";
import { unpreparedOutcome } from "./unprepared-commands.js";

/** What a command is applied with: the executor's context, how it starts a provider, what it started ahead. */
export interface CommandEnvironment {
  readonly ctx: ExecutorContext;
  readonly session: Omit<SessionDeps, "onInbound">;
  readonly startAhead: StartAhead;
  readonly checkLaunchProfile: (state: CodexProviderState) => void;
}

/** What a session that failed reconciliation still takes (upstream's list). */
const AFTER_RECONCILIATION_FAILURE: ReadonlySet<string> = new Set([
  "session.snapshot",
  "session.close",
  "session.destroy",
  "turn.interrupt",
  "run.cancel",
  "turn.stop",
]);

/** What a closed session fails as upstream's runner does ("Codex provider session is closed"). */
const CLOSED_SESSION_REFUSES: ReadonlySet<string> = new Set([
  "session.open",
  "turn.start",
  "turn.steer",
  "session.goal.get",
  "session.goal.set",
  "session.goal.clear",
]);

/** Whether a turn.steer with a text starts Codex: none started yet, or a turn.stop stopped it. */
function steerStarts(ctx: ExecutorContext, state: CodexProviderState): boolean {
  return state.threadId === null || (state.lifecycle === "prepared" && ctx.stoppedByTurnStop);
}

/**
 * One server command applied to the Codex executor's state and provider (inside the executor's
 * actor), answered as upstream's runner answers it: the refusals of an unprepared, unreconciled
 * or closed session first, then the command's own handler.
 */
export async function applyCodexCommand(
  env: CommandEnvironment,
  command: ServerCommand,
): Promise<CommandOutcome> {
  const { ctx, session, startAhead, checkLaunchProfile } = env;
  const payload = command.payload;
  if (command.type === "run.prepare")
    return await prepareSession(ctx, payload, startAhead, checkLaunchProfile);
  // The executor is selected, but its run.prepare was refused: nothing is bound yet.
  if (!ctx.bound) return unpreparedOutcome(command.type, payload);
  const state = ctx.state();
  if (state.lifecycle === "reconciliation_required" && !AFTER_RECONCILIATION_FAILURE.has(command.type)) {
    return rejected(`the provider session needs reconciliation; ${command.type} is refused`);
  }
  // A steer without text fails on its payload first (its handler says so), as upstream's; a
  // turn.start on a closed session is refused as closed whatever its text.
  const textless = command.type === "turn.steer" && typeof payload.text !== "string";
  // A goal command on a session whose goal API was never probed is refused as such first.
  const goalsUnprobed =
    command.type.startsWith("session.goal.") && goalsOf(state).sessionGoals.availability !== "available";
  if (
    state.lifecycle === "closed" &&
    CLOSED_SESSION_REFUSES.has(command.type) &&
    !textless &&
    !goalsUnprobed
  ) {
    // Upstream's runner commits startup facts a close kept held with a goal command's refusal.
    if (command.type.startsWith("session.goal.")) await ctx.releaseStartup();
    return executionFailed("Codex provider session is closed");
  }
  // Upstream's runner answers a stop on a closed session without the provider's fields.
  if (state.lifecycle === "closed" && command.type === "turn.stop")
    return applied({ status: "already_settled", reason: "turn.stop" });
  switch (command.type) {
    case "session.open":
      return await openSession(ctx, session, commandSubject(command));
    case "turn.start":
    case "turn.steer": {
      // A turn command with a text starts Codex (a new thread before session.open); a steer only
      // before session.open or after a turn.stop stopped Codex (then refused: no turn), as
      // upstream's runner does.
      if (typeof payload.text === "string" && (command.type === "turn.start" || steerStarts(ctx, state)))
        await ensureProvider(ctx, session, commandSubject(command));
      const outcome =
        command.type === "turn.start" ? await startTurn(ctx, payload) : await steerTurn(ctx, payload);
      // A turn command refused after its provider started (empty text, say): upstream's runner
      // commits the start's facts with the refusal, before whatever comes next.
      if (outcome.status !== "accepted" && ctx.deferredStartup?.commandId === command.commandId) {
        await ctx.releaseStartup();
        ctx.lateResumeNotes = false;
      }
      return outcome;
    }
    case "turn.interrupt":
    case "run.cancel":
      // Upstream's runner names the command as the reason, whatever the payload says.
      return await interruptTurn(ctx, command.type);
    case "turn.stop":
      return await stopTurn(ctx);
    case "semantic_tool.result":
      return await ctx.tools.deliverResult(payload);
    case "request.resolve":
      return await ctx.inputs.resolve(payload);
    case "session.snapshot":
      // From the state, Codex not started: before any session.open (no thread) or after a
      // turn.stop (the thread kept, reported prepared), as upstream's runner answers it.
      return applied(sessionSnapshot(state));
    case "session.close":
    case "session.destroy":
      return await closeSession(ctx);
    case "session.goal.get":
    case "session.goal.set":
    case "session.goal.clear":
      // After this runner stopped Codex for a turn.stop, upstream's runner starts Codex again for them.
      if (state.lifecycle === "prepared" && state.threadId !== null && ctx.stoppedByTurnStop)
        await ensureProvider(ctx, session, commandSubject(command));
      if (ctx.deferredStartup?.ensured === true) ctx.deferredStartup.goalCommanded = true;
      if (command.type === "session.goal.get") return await getGoal(ctx);
      if (command.type === "session.goal.set") return await setGoal(ctx, payload);
      return await clearGoal(ctx);
    case "run.attach":
      return attachRefused();
    default:
      // session.budget.increase among them: only managed providers take it.
      return unavailable();
  }
}

/** The command as the subject of a provider start (its startup facts name it). */
export function commandSubject(command: ServerCommand): StartupCommand {
  return { commandId: command.commandId, commandType: command.type, controllerSeq: command.controllerSeq };
}
