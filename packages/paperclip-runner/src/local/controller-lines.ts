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
  const queue: ControllerInput[] = [];
  let ended = false;
  let stopped = false;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    wake?.();
    wake = null;
  };
  const framer = new LineFramer(
    {
      onLine: (line) => queue.push(line),
      onOversized: (bytes) => queue.push({ oversizedBytes: bytes }),
    },
    maxLineBytes,
  );
  const onData = (chunk: Buffer | string): void => {
    framer.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    if (queue.length >= queueLines) input.pause();
    notify();
  };
  const onEnd = (): void => {
    framer.end();
    ended = true;
    notify();
  };
  const take = (): ControllerInput | undefined => {
    const next = queue.shift();
    if (!stopped && !ended && queue.length < queueLines && input.isPaused()) input.resume();
    return next;
  };
  input.on("data", onData);
  input.once("end", onEnd);
  input.once("close", onEnd);
  input.once("error", onEnd);
  const stop = (): void => {
    stopped = true;
    input.off("data", onData);
    input.pause();
    ended = true;
    notify();
  };
  return {
    stop,
    takeBuffered: () => queue.splice(0),
    lines: {
      async *[Symbol.asyncIterator]() {
        while (true) {
          const next = take();
          if (next !== undefined) {
            yield next;
            continue;
          }
          if (ended) return;
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
      },
    },
  };
}
