import type { Readable } from "node:stream";
import { LineFramer } from "../harness/line-framer.js";

/** A controller line, or the size of one that was too long to read. */
export type ControllerInput = string | { readonly oversizedBytes: number };

/**
 * Lines read ahead of the command being applied. Past this, stdin is paused (the
 * controller's writes block on the pipe) until the runner catches up, so at most
 * this many lines of at most `--controller-max-line-bytes` each are held in
 * memory, plus one partial line: 256 × 64 KiB = 16 MiB with the defaults.
 * Upstream's controller command queue has the same capacity.
 */
export const CONTROLLER_QUEUE_LINES = 256;

/** The controller's lines: iterated while the run lasts, and what is left over taken at its end. */
export interface ControllerLines {
  readonly lines: AsyncIterable<ControllerInput>;
  /** Lines already received but not yet iterated, removed from the queue. */
  takeBuffered(): ControllerInput[];
  stop(): void;
}

/**
 * Frames stdin into lines with bounded memory, in arrival order, ending when
 * stdin ends or `stop()` is called. Reading pauses while the queue is full.
 */
export function controllerLines(
  input: Readable,
  maxLineBytes: number,
  queueLines: number = CONTROLLER_QUEUE_LINES,
): ControllerLines {
  return new ControllerLineQueue(input, maxLineBytes, queueLines);
}

class ControllerLineQueue implements ControllerLines {
  readonly lines: AsyncIterable<ControllerInput> = { [Symbol.asyncIterator]: () => this.iterate() };
  private readonly queue: ControllerInput[] = [];
  private readonly framer: LineFramer;
  private ended = false;
  private stopped = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly input: Readable,
    maxLineBytes: number,
    private readonly queueLines: number,
  ) {
    this.framer = new LineFramer(
      {
        onLine: (line) => this.queue.push(line),
        onOversized: (bytes) => this.queue.push({ oversizedBytes: bytes }),
      },
      maxLineBytes,
    );
    input.on("data", this.onData);
    input.once("end", this.onEnd);
    input.once("close", this.onEnd);
    input.once("error", this.onEnd);
  }

  takeBuffered(): ControllerInput[] {
    return this.queue.splice(0);
  }

  stop(): void {
    this.stopped = true;
    this.input.off("data", this.onData);
    this.input.pause();
    this.ended = true;
    this.notify();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    this.framer.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    if (this.queue.length >= this.queueLines) this.input.pause();
    this.notify();
  };

  private readonly onEnd = (): void => {
    this.framer.end();
    this.ended = true;
    this.notify();
  };

  private notify(): void {
    this.wake?.();
    this.wake = null;
  }

  /** The next queued line; taking one below the bound resumes a paused stdin. */
  private take(): ControllerInput | undefined {
    const next = this.queue.shift();
    if (!this.stopped && !this.ended && this.queue.length < this.queueLines && this.input.isPaused()) {
      this.input.resume();
    }
    return next;
  }

  private async *iterate(): AsyncGenerator<ControllerInput> {
    while (true) {
      const next = this.take();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}
