import { PaperclipError } from "@paperclipai/errors";
import { executionFailed } from "../../provider/command-outcome.js";
import { executableProviderKind } from "../../provider/provider-kind.js";
import type { ServerCommand } from "../state/command-journal.js";
import { LIFECYCLE_END } from "../state/stream-end.js";
import type { DurableEngine, EngineReceipt } from "./durable-engine.js";

/** Arrivals kept for an engine not bound yet (the server queues a few commands at once). */
const MAX_ARRIVALS_KEPT = 16;

/** An engine durable mode may bind, and how to stop its processes when the runner fails. */
export interface BoundEngine {
  readonly engine: DurableEngine;
  readonly kill: () => Promise<void>;
}

export interface EngineSeamDeps {
  /** The built-in scripted harness (or `--harness-command`): runs that name no provider. Set up on first use. */
  readonly scripted: () => Promise<BoundEngine>;
  /** The Codex app-server executor (codex and opencode kinds). */
  readonly provider: () => BoundEngine;
  /** What the state directory already binds on a restart: the one provider state file, the scripted engine's state, or nothing. */
  readonly recovered: "provider" | "scripted" | null;
  /**
   * Bind `recovered` only for the first command that needs the engine, not at start: a relaunch
   * whose predecessor journalled the end of the stream starts no harness or provider for a run
   * that stays ended (nothing is bound once it was shut down).
   */
  readonly deferRecovered?: boolean;
}

/**
 * The provider executor seam: the engine is chosen by the first `run.prepare`
 * (`payload.provider.kind`: a provider kind this runner executes, or no provider
 * for the scripted harness) and, on a restart, by what the state directory holds.
 * A kind it does not execute fails the command with upstream's message and binds nothing;
 * once bound, the executor reads a later `run.prepare` without looking at its kind (as upstream's).
 */
export class EngineSeam implements DurableEngine {
  readonly ready: Promise<void>;
  readonly finished: Promise<number>;
  private settle!: (result: { ok: true; code: number } | { ok: false; error: unknown }) => void;
  private bound: BoundEngine | null = null;
  /** Commands that arrived before an engine was bound, told to it once it is. */
  private arrivals: ServerCommand[] = [];
  /** The deferred recovered engine's binding (`deferRecovered`), once a command started it. */
  private deferredBinding: Promise<void> | null = null;
  /** Shut down with nothing bound: nothing is bound after. */
  private ended = false;
  /** The runner is failing (`kill`): nothing is bound after, and no command reaches an engine. */
  private killed = false;

  constructor(private readonly deps: EngineSeamDeps) {
    this.finished = new Promise<{ ok: true; code: number } | { ok: false; error: unknown }>((resolve) => {
      this.settle = resolve;
    }).then((result) => {
      if (!result.ok) throw result.error;
      return result.code;
    });
    this.ready =
      deps.recovered === null || deps.deferRecovered === true
        ? Promise.resolve()
        : this.bindRecovered(deps.recovered);
  }

  /** Binds the deferred recovered engine for a command (once; never after a shutdown). */
  private bindDeferred(): Promise<void> {
    const { recovered, deferRecovered } = this.deps;
    if (recovered === null || deferRecovered !== true || this.ended || this.killed || this.bound !== null)
      return Promise.resolve();
    this.deferredBinding ??= this.bindRecovered(recovered);
    return this.deferredBinding;
  }

  private async bindRecovered(recovered: "provider" | "scripted"): Promise<void> {
    const bound = recovered === "provider" ? this.deps.provider() : await this.deps.scripted();
    if (await this.killedMeanwhile(bound)) return;
    this.bind(bound);
    await bound.engine.ready;
  }

  get isFinished(): boolean {
    return this.bound?.engine.isFinished ?? this.ended;
  }

  async command(command: ServerCommand, engineSeq: number): Promise<EngineReceipt> {
    if (this.killed) return await LEFT_UNANSWERED;
    await this.bindDeferred();
    // A kill may land while the deferred binding is awaited, even one already settled.
    if (this.killed) return await LEFT_UNANSWERED;
    if (this.bound === null) {
      // Nothing is bound before a run.prepare: upstream's runner fails any other command, and
      // binding the scripted harness here would run a provider's later run.prepare through it.
      if (command.type !== "run.prepare")
        return failedReceipt(command, "run.prepare must select a provider before provider commands execute");
      const provider = command.payload.provider;
      if (provider !== undefined && provider !== null) {
        try {
          executableProviderKind(provider);
        } catch (error) {
          // Upstream's runner fails the command (the server's transport reads the result's message).
          return failedReceipt(command, error instanceof PaperclipError ? error.message : String(error));
        }
        this.bind(this.deps.provider());
      } else {
        const scripted = await this.deps.scripted();
        if (await this.killedMeanwhile(scripted)) return await LEFT_UNANSWERED;
        this.bind(scripted);
      }
    }
    return (this.bound as BoundEngine).engine.command(command, engineSeq);
  }

  async beforeCommand(command: ServerCommand): Promise<void> {
    // An end of the stream stops the run: the deferred engine is not started (a suspended Codex
    // session resumed) only to be stopped. Nothing bound, `shutdown` ends the run unbound (a
    // recovered provider's executor bound for its shutdown alone).
    if (this.killed) return;
    if (!LIFECYCLE_END.has(command.type)) await this.bindDeferred();
    await this.bound?.engine.beforeCommand?.(command);
  }

  async afterCommand(command: ServerCommand): Promise<void> {
    await this.bound?.engine.afterCommand?.(command);
  }

  commandArrived(command: ServerCommand): void {
    if (this.bound === null) this.arrivals = [...this.arrivals, command].slice(-MAX_ARRIVALS_KEPT);
    else this.bound.engine.commandArrived?.(command);
  }

  holdsEvents(): boolean {
    return this.bound?.engine.holdsEvents?.() === true;
  }

  acknowledge(seq: number): void {
    this.bound?.engine.acknowledge(seq);
  }

  shutdown(): void {
    // Killed, nothing is bound any more (a binding under way is killed instead): the run ends unbound.
    if (this.bound === null && this.deferredBinding !== null && !this.killed) {
      // Binding the deferred engine: it is shut down once bound (it started; it must not run on).
      // A binding that failed bound nothing (its command reports why): the run ends unbound.
      void this.deferredBinding.then(
        () => this.shutdown(),
        () => {
          this.deferredBinding = null;
          this.shutdown();
        },
      );
      return;
    }
    if (
      this.bound === null &&
      !this.killed &&
      this.deps.recovered === "provider" &&
      this.deps.deferRecovered === true
    ) {
      // A recovered provider run ended unbound (its recorded end honoured, or an end the welcome
      // brought): its executor is bound only to be shut down, which resumes nothing and starts no
      // provider, but stops the dead runner's and commits a settled turn's lost events.
      this.bind(this.deps.provider());
    }
    if (this.bound === null) {
      this.ended = true;
      this.settle({ ok: true, code: 0 });
    } else this.bound.engine.shutdown();
  }

  /** Stops the bound engine's processes without ending the run (the runner is failing; its state is kept). */
  kill(): Promise<void> {
    // The commands the failing runner still applies come after this: an engine bound for them
    // would never be killed, and start the harness or provider the runner leaves running.
    this.killed = true;
    return this.bound?.kill() ?? Promise.resolve();
  }

  /** An engine set up while `kill` ran is killed instead of bound. */
  private async killedMeanwhile(engine: BoundEngine): Promise<boolean> {
    if (!this.killed) return false;
    await engine.kill();
    return true;
  }

  private bind(bound: BoundEngine): void {
    this.bound = bound;
    for (const command of this.arrivals) bound.engine.commandArrived?.(command);
    this.arrivals = [];
    bound.engine.finished.then(
      (code) => this.settle({ ok: true, code }),
      (error: unknown) => this.settle({ ok: false, error }),
    );
  }
}

/**
 * What a command gets once the engine was killed: no answer, ever. The runner is failing; the
 * command stays pending in its journal, indeterminate for the next runner, as after a crash (an
 * answer journalled now would be replayed as the command's result).
 */
const LEFT_UNANSWERED = new Promise<never>(() => undefined);

/** A command failed as upstream's runner fails it: `command_execution_failed` and its message. */
function failedReceipt(command: ServerCommand, message: string): EngineReceipt {
  return { kind: "receipt", commandId: command.commandId, original: null, ...executionFailed(message) };
}
