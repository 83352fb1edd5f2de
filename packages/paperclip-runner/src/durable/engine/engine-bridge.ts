import { Writable } from "node:stream";
import type { ControllerInput, ControllerLines } from "../../local/controller-lines.js";
import type { HarnessLauncher } from "../../local/harness-supervisor.js";
import { DEFAULT_LIMITS } from "../../local/local-options.js";
import { LocalRunner } from "../../local/local-runner.js";
import { localTimings } from "../../local/local-timings.js";
import type { StateStore } from "../../state/state-store.js";
import type { ServerCommand } from "../state/command-journal.js";
import type { DurableEngine, EngineEvent, EngineReceipt } from "./durable-engine.js";
import { readEngineLine } from "./engine-output.js";

export type { EngineEvent, EngineReceipt } from "./durable-engine.js";

/**
 * The run loop durable mode drives: the same `LocalRunner` local mode uses
 * (command admission, harness supervision, terminal decision, its own journal),
 * fed controller lines in memory instead of stdin, its output read back here:
 * receipts answer `command()`, events go to `onEvent`, which is awaited before the
 * engine's next write, so an engine event is never ahead of what durable mode has
 * persisted.
 */
export class EngineBridge implements DurableEngine {
  private readonly queue: ControllerInput[] = [];
  private ended = false;
  private wake: (() => void) | null = null;
  private readonly runner: LocalRunner;
  private readonly receipts = new Map<string, (receipt: EngineReceipt) => void>();
  private markReady!: () => void;
  private done = false;
  /** Settles with the engine's exit status once its run.terminal is out (or rejects with its failure). */
  readonly finished: Promise<number>;
  /** Resolves when the engine takes commands: at once for a fresh run, after its runner.reconciled for a resumed one. */
  readonly ready: Promise<void>;

  constructor(store: StateStore, launcher: HarnessLauncher, onEvent: (event: EngineEvent) => Promise<void>) {
    this.ready = new Promise((resolve) => {
      this.markReady = resolve;
    });
    if (store.recovery === null) this.markReady();
    const onLine = async (line: string): Promise<void> => {
      const output = readEngineLine(line);
      if (output.kind === "receipt") this.receipts.get(output.commandId)?.(output);
      if (output.kind !== "event") return;
      await onEvent(output);
      if (output.event.eventType === "runner.reconciled") this.markReady();
    };
    const output = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        const lines = chunk
          .toString("utf8")
          .split("\n")
          .filter((line) => line !== "");
        lines
          .reduce((done, line) => done.then(() => onLine(line)), Promise.resolve())
          .then(() => callback(), callback);
      },
    });
    this.runner = new LocalRunner(store, launcher, output, localTimings(DEFAULT_LIMITS), DEFAULT_LIMITS);
    this.finished = this.runner.run(this.controllerLines());
    this.finished.then(
      () => {
        this.done = true;
      },
      () => {
        this.done = true;
      },
    );
  }

  /** Whether the engine's run has ended (its run.terminal is out). */
  get isFinished(): boolean {
    return this.done;
  }

  /** Hands a server command to the engine under the engine's own `controllerSeq`, and resolves with its receipt. */
  command(command: ServerCommand, engineSeq: number): Promise<EngineReceipt> {
    return new Promise((resolve) => {
      this.receipts.set(command.commandId, (receipt) => {
        this.receipts.delete(command.commandId);
        resolve(receipt);
      });
      this.send({
        schema: "paperclip.prp.command.v1",
        commandId: command.commandId,
        controllerSeq: engineSeq,
        type: command.type,
        payload: command.payload,
      });
    });
  }

  /** The engine's events through `seq` are durable elsewhere: it may drop them from its own outbox. */
  acknowledge(seq: number): void {
    this.send({ schema: "paperclip.prp.ack.v1", throughSeq: seq });
  }

  /** Stops the run as `runner.shutdown` would (used when the runner must stop without a command). */
  shutdown(): void {
    this.runner.requestShutdown();
  }

  private send(line: Record<string, unknown>): void {
    this.queue.push(JSON.stringify(line));
    this.wake?.();
    this.wake = null;
  }

  private controllerLines(): ControllerLines {
    const queue = this.queue;
    const next = async (): Promise<ControllerInput | null> => {
      for (;;) {
        const line = queue.shift();
        if (line !== undefined) return line;
        if (this.ended) return null;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
      }
    };
    return {
      takeBuffered: () => queue.splice(0),
      stop: () => {
        this.ended = true;
        this.wake?.();
        this.wake = null;
      },
      lines: {
        async *[Symbol.asyncIterator]() {
          for (let line = await next(); line !== null; line = await next()) yield line;
        },
      },
    };
  }
}
