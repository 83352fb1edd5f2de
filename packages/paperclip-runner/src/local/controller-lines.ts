import type { Readable } from "node:stream";
import { LineFramer } from "../harness/line-framer.js";

/** A controller line, or the size of one that was too long to read. */
export type ControllerInput = string | { readonly oversizedBytes: number };

/** Controller lines are bounded too; a turn's input may be large, so the bound is wider than the harness frame. */
export const MAX_CONTROLLER_LINE_BYTES = 1024 * 1024;

/** The controller's lines: iterated while the run lasts, and what is left over taken at its end. */
export interface ControllerLines {
  readonly lines: AsyncIterable<ControllerInput>;
  /** Lines already received but not yet iterated, removed from the queue. */
  takeBuffered(): ControllerInput[];
  stop(): void;
}

/** Frames stdin into lines with bounded memory, in arrival order, ending when stdin ends or `stop()` is called. */
export function controllerLines(input: Readable): ControllerLines {
  const queue: ControllerInput[] = [];
  let ended = false;
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
    MAX_CONTROLLER_LINE_BYTES,
  );
  const onData = (chunk: Buffer | string): void => {
    framer.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    notify();
  };
  const onEnd = (): void => {
    framer.end();
    ended = true;
    notify();
  };
  input.on("data", onData);
  input.once("end", onEnd);
  input.once("close", onEnd);
  input.once("error", onEnd);
  const stop = (): void => {
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
          const next = queue.shift();
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
