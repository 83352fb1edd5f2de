import { Writable } from "node:stream";
import type { ControllerInput, ControllerLines } from "../local/controller-lines.js";
import type { HarnessLauncher } from "../local/harness-supervisor.js";
import { DEFAULT_LIMITS } from "../local/local-options.js";
import { LocalRunner } from "../local/local-runner.js";
import { localTimings } from "../local/local-timings.js";
import type { StateStore } from "../state/state-store.js";

/**
 * The run loop durable mode drives: the same `LocalRunner` local mode uses
 * (command admission, harness supervision, terminal decision, its own journal),
 * fed controller lines in memory instead of stdin, its output lines handed to
 * `onLine` instead of stdout. `onLine` is awaited before the engine's next write,
 * so an engine event is never ahead of what durable mode has persisted.
 */
export class EngineBridge {
  private readonly queue: ControllerInput[] = [];
  private ended = false;
  private wake: (() => void) | null = null;
  private readonly runner: LocalRunner;
  /** Whether the engine resumes an earlier process's run (it then reconciles before taking commands). */
  readonly resumes: boolean;
  /** Settles with the engine's exit status once its run.terminal is out (or rejects with its failure). */
  readonly finished: Promise<number>;

  constructor(store: StateStore, launcher: HarnessLauncher, onLine: (line: string) => Promise<void>) {
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
    this.resumes = store.recovery !== null;
    this.finished = this.runner.run(this.controllerLines());
  }

  /** Hands one controller line (a command or an ack) to the engine. */
  send(line: string): void {
    this.queue.push(line);
    this.notify();
  }

  /** Stops the run as `runner.shutdown` would (used when the runner must stop without a command). */
  shutdown(): void {
    this.runner.requestShutdown();
  }

  private notify(): void {
    this.wake?.();
    this.wake = null;
  }

  private controllerLines(): ControllerLines {
    const queue = this.queue;
    return {
      takeBuffered: () => queue.splice(0),
      stop: () => {
        this.ended = true;
        this.notify();
      },
      lines: {
        [Symbol.asyncIterator]: async function* (this: EngineBridge) {
          while (true) {
            const next = queue.shift();
            if (next !== undefined) {
              yield next;
              continue;
            }
            if (this.ended) return;
            await new Promise<void>((resolve) => {
              this.wake = resolve;
            });
          }
        }.bind(this),
      },
    };
  }
}
