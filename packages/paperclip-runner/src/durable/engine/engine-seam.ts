import { PaperclipError } from "@paperclipai/errors";
import { executableProviderKind } from "../../provider/provider-kind.js";
import type { ServerCommand } from "../state/command-journal.js";
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
}

/**
 * The provider executor seam: the engine is chosen by the first `run.prepare`
 * (`payload.provider.kind`: a provider kind this runner executes, or no provider
 * for the scripted harness) and, on a restart, by what the state directory holds.
 * A kind it does not execute is refused with upstream's message and binds nothing.
 */
export class EngineSeam implements DurableEngine {
  readonly ready: Promise<void>;
  readonly finished: Promise<number>;
  private settle!: (result: { ok: true; code: number } | { ok: false; error: unknown }) => void;
  private bound: BoundEngine | null = null;
  /** Commands that arrived before an engine was bound, told to it once it is. */
  private arrivals: ServerCommand[] = [];

  constructor(private readonly deps: EngineSeamDeps) {
    this.finished = new Promise<{ ok: true; code: number } | { ok: false; error: unknown }>((resolve) => {
      this.settle = resolve;
    }).then((result) => {
      if (!result.ok) throw result.error;
      return result.code;
    });
    this.ready = deps.recovered === null ? Promise.resolve() : this.bindRecovered(deps.recovered);
  }

  private async bindRecovered(recovered: "provider" | "scripted"): Promise<void> {
    const bound = recovered === "provider" ? this.deps.provider() : await this.deps.scripted();
    this.bind(bound);
    await bound.engine.ready;
  }

  get isFinished(): boolean {
    return this.bound?.engine.isFinished ?? false;
  }

  async command(command: ServerCommand, engineSeq: number): Promise<EngineReceipt> {
    if (this.bound === null) {
      const provider = command.type === "run.prepare" ? command.payload.provider : undefined;
      if (provider !== undefined && provider !== null) {
        try {
          executableProviderKind((provider as { kind?: unknown }).kind);
        } catch (error) {
          const detail = error instanceof PaperclipError ? error.message : String(error);
          return {
            kind: "receipt",
            commandId: command.commandId,
            status: "rejected",
            detail,
            original: null,
          };
        }
        this.bind(this.deps.provider());
      } else {
        this.bind(await this.deps.scripted());
      }
    }
    return (this.bound as BoundEngine).engine.command(command, engineSeq);
  }

  async beforeCommand(command: ServerCommand): Promise<void> {
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
    if (this.bound === null) this.settle({ ok: true, code: 0 });
    else this.bound.engine.shutdown();
  }

  /** Stops the bound engine's processes without ending the run (the runner is failing; its state is kept). */
  kill(): Promise<void> {
    return this.bound?.kill() ?? Promise.resolve();
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
