import type { DurableEngine, EngineEvent, EngineReceipt } from "../durable/engine/durable-engine.js";
import type { ServerCommand } from "../durable/state/command-journal.js";
import { applyCodexCommand, commandSubject } from "./codex-command-dispatch.js";
import type { CodexProviderState } from "./codex-provider-state.js";
import { reapDeadRunner, recoverProviderSession } from "./codex-recovery.js";
import type { SessionDeps } from "./codex-session.js";
import { type CommandOutcome, failedOutcome } from "./command-outcome.js";
import { DrainMarks } from "./drain-answer.js";
import { ExecutorContext, type ExecutorIdentity } from "./executor-context.js";
import { HeldStartupRelease } from "./held-startup-release.js";
import { discardPrewarmed, StartAhead } from "./provider-prewarm.js";
import { restartExitedProvider, restartIfExited } from "./provider-restart.js";
import { holdCarriedStartup } from "./startup-carry.js";

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

/** The commands durable mode answers without the executor (`command-applier.ts`). */
const ANSWERED_BY_DURABLE_MODE: ReadonlySet<string> = new Set([
  "runner.drain",
  "runner.suspend",
  "runner.shutdown",
]);

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
      const recovering = this.recoveryPending;
      if (this.recoveryPending) {
        this.recoveryPending = false;
        await holdCarriedStartup(this.ctx, command.commandId, () =>
          recoverProviderSession(this.ctx, this.deps.session, commandSubject(command)),
        );
      }
      await this.heldStartup.before(command);
      // A relaunch onto a session closed (or destroyed) with startup facts held: upstream's runner
      // commits them after its first drain's answer, no later drain needed (they were held as fresh).
      if (
        recovering &&
        command.type === "runner.drain" &&
        this.ctx.bound &&
        this.ctx.state().lifecycle === "closed"
      )
        this.heldStartup.releaseAfterAnswer();
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
      // A restarted runner ended before any command reached the executor (an end replayed, or
      // honoured unbound): the session is not resumed only to be stopped, but the dead runner's
      // provider is stopped and its settled turn's lost events committed all the same.
      if (this.recoveryPending) {
        this.recoveryPending = false;
        await reapDeadRunner(this.ctx);
      }
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

  private apply(command: ServerCommand): Promise<CommandOutcome> {
    return applyCodexCommand(
      {
        ctx: this.ctx,
        session: this.deps.session,
        startAhead: this.startAhead,
        checkLaunchProfile: this.deps.checkLaunchProfile,
      },
      command,
    );
  }
}
