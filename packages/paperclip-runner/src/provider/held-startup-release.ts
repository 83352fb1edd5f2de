import type { ServerCommand } from "../durable/state/command-journal.js";
import type { DeferredStartup, ExecutorContext } from "./executor-context.js";
import { carryHeldStartup } from "./startup-carry.js";
import {
  cancelKeepsHeldFacts,
  DRAIN_RELEASE_DELAY_MS,
  type DrainState,
  releasedOnDrain,
  startupRelease,
} from "./startup-release-policy.js";

/** The commands that close the session (they keep held facts held, as if fresh). */
const CLOSES: ReadonlySet<string> = new Set(["session.close", "session.destroy"]);

/**
 * Applies `startup-release-policy.ts` to the executor's held startup facts around each command:
 * remembers what the server's drains did with them and commits, keeps or carries them.
 */
export class HeldStartupRelease {
  /** The held facts a `runner.drain` already kept. */
  private drained: DeferredStartup | null = null;
  /** A later drain came: its commit of the held facts is due, `DRAIN_RELEASE_DELAY_MS` after its answer. */
  private releaseDue = false;
  private releaseTimer: NodeJS.Timeout | null = null;
  /** The command whose `before` left the held facts as a first drain does (`kept-as-drained`). */
  private keptBy: string | null = null;
  /** The command that arrived last: a drain's due commit waits for no timer once another came behind it. */
  private lastArrived: string | null = null;

  /** `fail`: a due commit that failed (its facts no longer held) ends the runner with the error. */
  constructor(
    private readonly ctx: ExecutorContext,
    private readonly fail: (error: unknown) => void,
  ) {}

  /**
   * A command arrived (before durable mode journals it): upstream's runner decides on arrival, so
   * a due commit is no longer made by the timer but by that command's `before` (a suspend carries).
   */
  arrived(command: ServerCommand): void {
    this.lastArrived = command.commandId;
    if (this.releaseTimer !== null) clearTimeout(this.releaseTimer);
    this.releaseTimer = null;
  }

  /** This drain committed facts a provider restart held: it answers `retainedEventsDrained:false`. */
  releasedOnThisDrain = false;

  /** Before any command is handled (inside the executor's actor). */
  async before(command: ServerCommand): Promise<void> {
    const held = this.ctx.deferredStartup;
    if (command.type === "runner.drain" && held?.ensured === true && this.drainState(held) === "none") {
      this.cancelTimer();
      this.drained = null;
      this.releasedOnThisDrain = true;
      await this.releaseDrained();
      return;
    }
    const turnActive = this.ctx.bound && this.ctx.state().activeProviderTurnId !== null;
    const release = startupRelease(
      command.type,
      this.drainState(held),
      cancelKeepsHeldFacts(held, turnActive),
    );
    this.cancelTimer();
    this.keptBy = release === "kept-as-drained" ? command.commandId : null;
    // Facts no longer held (committed or carried) leave no drain's mark behind; a close keeps them
    // held as fresh ones (upstream's drains behind it answer as behind a session.open).
    if (release !== "keep" || CLOSES.has(command.type)) this.drained = null;
    if (release === "kept-as-drained") this.drained = held;
    else if (release === "carry") await carryHeldStartup(this.ctx);
    else if (release === "before") await this.releaseDrained();
    else if (release === "keep" && command.type === "runner.drain") this.drained = held;
    else if (release === "after-answer") this.releaseDue = true;
  }

  /** The held facts are committed after this drain's answer, as a later drain's would be. */
  releaseAfterAnswer(): void {
    if (this.ctx.deferredStartup === null) return;
    this.drained = null;
    this.releaseDue = true;
  }

  /** Once a command's answer is sent (outside the executor's actor). */
  afterAnswer(command: ServerCommand): void {
    if (command.type === "runner.drain") this.releasedOnThisDrain = false;
    if (command.type !== "runner.drain" || !this.releaseDue || this.releaseTimer !== null) return;
    if (this.lastArrived !== null && this.lastArrived !== command.commandId) return;
    this.releaseTimer = setTimeout(() => {
      this.releaseTimer = null;
      this.ctx
        .run(async () => {
          if (this.releaseDue) await this.releaseDrained();
        })
        .catch(this.fail);
    }, DRAIN_RELEASE_DELAY_MS);
    this.releaseTimer.unref();
  }

  /** After a command's own effect (inside the executor's actor), before its answer. */
  async afterEffect(command: ServerCommand): Promise<void> {
    if (startupRelease(command.type, "none", false) !== "after-effect" || this.keptBy === command.commandId)
      return;
    const held = this.ctx.deferredStartup;
    // Facts held by this very command (a session.open's) wait for the next one.
    if (held === null || held.commandId === command.commandId) return;
    await this.ctx.releaseStartup();
  }

  /** The runner leaves: a due commit is no longer made (a suspend or shutdown carried them). */
  stop(): void {
    this.cancelTimer();
  }

  private drainState(held: DeferredStartup | null): DrainState {
    if (this.releaseDue) return "releasing";
    return held !== null && held === this.drained ? "kept" : "none";
  }

  private cancelTimer(): void {
    this.releaseDue = false;
    if (this.releaseTimer !== null) clearTimeout(this.releaseTimer);
    this.releaseTimer = null;
  }

  /** What a later drain commits: the held facts without Codex's replayed usage. */
  private async releaseDrained(): Promise<void> {
    this.releaseDue = false;
    const held = this.ctx.deferredStartup;
    if (held === null) return;
    this.ctx.deferredStartup = {
      ...held,
      events: releasedOnDrain(held.events),
      ...(held.carried === undefined ? {} : { carried: releasedOnDrain(held.carried) }),
    };
    await this.ctx.releaseStartup();
  }
}
