import type { DurableEngine, EngineEvent, EngineReceipt } from "../durable/engine/durable-engine.js";
import type { ServerCommand } from "../durable/state/command-journal.js";
import type { CodexProviderState } from "./codex-provider-state.js";
import { recoverProviderSession } from "./codex-recovery.js";
import type { SessionDeps } from "./codex-session.js";
import {
  applied,
  attachRefused,
  type CommandOutcome,
  executionFailed,
  failedOutcome,
  rejected,
  sessionSnapshot,
  unavailable,
} from "./command-outcome.js";
import { DrainMarks } from "./drain-answer.js";
import { ExecutorContext, type ExecutorIdentity } from "./executor-context.js";
import { HeldStartupRelease } from "./held-startup-release.js";
import { discardPrewarmed, StartAhead } from "./provider-prewarm.js";
import { restartExitedProvider, restartIfExited } from "./provider-restart.js";
import {
  closeSession,
  ensureProvider,
  openSession,
  prepareSession,
  type StartupCommand,
} from "./session-commands.js";
import { clearGoal, getGoal, goalsOf, setGoal } from "./session-goal-commands.js";
import { holdCarriedStartup } from "./startup-carry.js";
import { interruptTurn, startTurn, steerTurn, stopTurn } from "./turn-commands.js";
import { unpreparedOutcome } from "./unprepared-commands.js";

export interface CodexExecutorDeps {
  readonly stateDir: string;
  readonly identity: ExecutorIdentity;
  /** The last engine event seq durable mode already holds (events continue after it). */
  readonly lastEventSeq: number;
  readonly onEvent: (event: EngineEvent) => Promise<void>;
  readonly session: Omit<SessionDeps, "onInbound">;
  /** The state a previous runner left (a restart), or null. */
  readonly recovered: CodexProviderState | null;
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

/** The commands durable mode answers without the executor (`command-applier.ts`). */
const ANSWERED_BY_DURABLE_MODE: ReadonlySet<string> = new Set([
  "runner.drain",
  "runner.suspend",
  "runner.shutdown",
]);

function commandSubject(command: ServerCommand): StartupCommand {
  return { commandId: command.commandId, commandType: command.type, controllerSeq: command.controllerSeq };
}

/**
 * The Codex app-server executor (also OpenCode's, behind the same facade): PRP
 * commands become app-server calls, the provider's notifications become PRP
 * events as upstream maps them (`provider-inbound.ts`), one at a time in
 * arrival order.
 */
export class CodexExecutor implements DurableEngine {
  readonly ready: Promise<void> = Promise.resolve();
  readonly finished: Promise<number>;
  private finish!: (code: number) => void;
  private done = false;
  private readonly ctx: ExecutorContext;
  private recoveryPending: boolean;
  private readonly heldStartup: HeldStartupRelease;
  private readonly startAhead: StartAhead;
  private readonly restart: NonNullable<ExecutorContext["restartProvider"]>;
  /** What the last command closed, the drains in a row: what the drain answer reads (`drain-answer.ts`). */
  private readonly drainMarks = new DrainMarks();

  constructor(private readonly deps: CodexExecutorDeps) {
    this.ctx = new ExecutorContext(
      deps.identity,
      deps.stateDir,
      deps.recovered,
      deps.lastEventSeq,
      deps.onEvent,
    );
    let fail!: (error: unknown) => void;
    this.finished = new Promise((resolve, reject) => {
      this.finish = resolve;
      fail = reject;
    });
    this.restart = (exit) => restartExitedProvider(this.ctx, deps.session, exit);
    this.ctx.restartProvider = this.restart;
    // A failed commit of held facts ends the runner (durable mode fails on `finished`); the next resumes.
    this.heldStartup = new HeldStartupRelease(this.ctx, fail);
    // A restarted runner resumes the provider when the server's first command arrives (as upstream's does).
    this.recoveryPending = deps.recovered !== null;
    this.startAhead = new StartAhead(this.ctx, deps.session, () => this.recoveryPending || this.done);
  }

  get isFinished(): boolean {
    return this.done;
  }

  /**
   * Runs before every command durable mode handles, drain and suspend included:
   * a pending recovery happens first (the facts a suspended run carried held with its own),
   * the commands durable mode answers itself (drain, suspend, shutdown) turn restarts off
   * until the next command the executor handles (their answers promise no more events), and
   * the startup facts still held are committed, kept or carried as upstream's runner does
   * (`held-startup-release.ts`).
   */
  beforeCommand(command: ServerCommand): Promise<void> {
    return this.ctx.run(async () => {
      const answeredByDurableMode = ANSWERED_BY_DURABLE_MODE.has(command.type);
      this.drainMarks.before(command.type);
      this.ctx.restartProvider = answeredByDurableMode ? null : this.restart;
      if (this.recoveryPending) {
        this.recoveryPending = false;
        await holdCarriedStartup(this.ctx, command.commandId, () =>
          recoverProviderSession(this.ctx, this.deps.session, commandSubject(command)),
        );
      }
      await this.heldStartup.before(command);
      if (!answeredByDurableMode) await restartIfExited(this.ctx);
    });
  }

  /** A drain's answer is sent: the marks it answered for move on, its commit of held facts follows. */
  afterCommand(command: ServerCommand): Promise<void> {
    this.drainMarks.answered(command.type, this.ctx);
    this.heldStartup.afterAnswer(command);
    return Promise.resolve();
  }

  commandArrived(command: ServerCommand): void {
    this.heldStartup.arrived(command);
    this.startAhead.arrived(command);
  }

  command(command: ServerCommand): Promise<EngineReceipt> {
    return this.ctx.run(async () => {
      if (command.type === "session.open") this.startAhead.taken();
      const openBefore = this.ctx.bound && this.ctx.state().lifecycle !== "closed";
      const outcome = await this.apply(command).catch((error: unknown) => failedOutcome(error));
      this.drainMarks.handled(command.type, outcome.status === "accepted", openBefore);
      // A provider started ahead that this command did not take (a refused session.open, a
      // failed run.prepare) is stopped: nothing is left running for a session not opened.
      if (
        command.type === "session.open" ||
        (command.type === "run.prepare" && outcome.status !== "accepted")
      )
        await discardPrewarmed(this.ctx);
      await this.heldStartup.afterEffect(command);
      return {
        kind: "receipt" as const,
        commandId: command.commandId,
        status: outcome.status,
        detail: outcome.detail,
        original: null,
        ...(outcome.result === undefined ? {} : { result: outcome.result }),
      };
    });
  }

  holdsEvents(): boolean {
    // Besides held facts, what upstream's runner answers as retained though nothing is left to commit.
    return this.drainMarks.retained(this.ctx, this.heldStartup.releasedOnThisDrain);
  }

  acknowledge(): void {
    // Events are in durable mode's outbox before `emit` resolves: nothing is retained here.
  }

  shutdown(): void {
    this.heldStartup.stop();
    void this.ctx.run(async () => {
      await discardPrewarmed(this.ctx);
      await this.ctx.session?.stop();
      this.ctx.session = null;
      if (this.ctx.bound) await this.ctx.save();
      this.done = true;
      this.finish(0);
    });
  }

  /**
   * Stops the provider at once without touching the state (the runner is failing; the next one
   * resumes): first nothing is handled or saved any more, so its exit starts no new provider.
   */
  async kill(): Promise<void> {
    this.heldStartup.stop();
    this.ctx.killed = true;
    this.ctx.restartProvider = null;
    await Promise.all([discardPrewarmed(this.ctx), this.ctx.session?.stop(0)]);
  }

  /** Whether a turn.steer with a text starts Codex: none started yet, or a turn.stop stopped it. */
  private steerStarts(state: CodexProviderState): boolean {
    return state.threadId === null || (state.lifecycle === "prepared" && this.ctx.stoppedByTurnStop);
  }

  private async apply(command: ServerCommand): Promise<CommandOutcome> {
    const payload = command.payload;
    if (command.type === "run.prepare")
      return await prepareSession(this.ctx, payload, this.startAhead, this.deps.checkLaunchProfile);
    // The executor is selected, but its run.prepare was refused: nothing is bound yet.
    if (!this.ctx.bound) return unpreparedOutcome(command.type, payload);
    const state = this.ctx.state();
    if (state.lifecycle === "reconciliation_required" && !AFTER_RECONCILIATION_FAILURE.has(command.type)) {
      return rejected(`the provider session needs reconciliation; ${command.type} is refused`);
    }
    // A turn command without text fails on its payload first (its handler says so), as upstream's.
    const textless =
      (command.type === "turn.start" || command.type === "turn.steer") && typeof payload.text !== "string";
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
      if (command.type.startsWith("session.goal.")) await this.ctx.releaseStartup();
      return executionFailed("Codex provider session is closed");
    }
    // Upstream's runner answers a stop on a closed session without the provider's fields.
    if (state.lifecycle === "closed" && command.type === "turn.stop")
      return applied({ status: "already_settled", reason: "turn.stop" });
    switch (command.type) {
      case "session.open":
        return await openSession(this.ctx, this.deps.session, commandSubject(command));
      case "turn.start":
      case "turn.steer": {
        // A turn command with a text starts Codex (a new thread before session.open); a steer only
        // before session.open or after a turn.stop stopped Codex (then refused: no turn), as
        // upstream's runner does.
        if (typeof payload.text === "string" && (command.type === "turn.start" || this.steerStarts(state)))
          await ensureProvider(this.ctx, this.deps.session, commandSubject(command));
        const outcome =
          command.type === "turn.start"
            ? await startTurn(this.ctx, payload)
            : await steerTurn(this.ctx, payload);
        // A turn command refused after its provider started (empty text, say): upstream's runner
        // commits the start's facts with the refusal, before whatever comes next.
        if (outcome.status !== "accepted" && this.ctx.deferredStartup?.commandId === command.commandId) {
          await this.ctx.releaseStartup();
          this.ctx.lateResumeNotes = false;
        }
        return outcome;
      }
      case "turn.interrupt":
      case "run.cancel":
        // Upstream's runner names the command as the reason, whatever the payload says.
        return await interruptTurn(this.ctx, command.type);
      case "turn.stop":
        return await stopTurn(this.ctx);
      case "semantic_tool.result":
        return await this.ctx.tools.deliverResult(payload);
      case "request.resolve":
        return await this.ctx.inputs.resolve(payload);
      case "session.snapshot":
        // From the state, Codex not started: before any session.open (no thread) or after a
        // turn.stop (the thread kept, reported prepared), as upstream's runner answers it.
        return applied(sessionSnapshot(state));
      case "session.close":
      case "session.destroy":
        return await closeSession(this.ctx);
      case "session.goal.get":
      case "session.goal.set":
      case "session.goal.clear":
        // After this runner stopped Codex for a turn.stop, upstream's runner starts Codex again for them.
        if (state.lifecycle === "prepared" && state.threadId !== null && this.ctx.stoppedByTurnStop)
          await ensureProvider(this.ctx, this.deps.session, commandSubject(command));
        if (this.ctx.deferredStartup?.ensured === true) this.ctx.deferredStartup.goalCommanded = true;
        if (command.type === "session.goal.get") return await getGoal(this.ctx);
        if (command.type === "session.goal.set") return await setGoal(this.ctx, payload);
        return await clearGoal(this.ctx);
      case "run.attach":
        return attachRefused();
      default:
        // session.budget.increase among them: only managed providers take it.
        return unavailable();
    }
  }
}
