import type { JsonValue } from "@paperclipai/errors";
import type { FollowStats } from "./follow-stats.js";
import type { TextSink } from "./frame-delivery.js";
import type { ExitStatus, OutputStream } from "./output-frame.js";
import { TailBuffer } from "./tail-buffer.js";

export interface ExecuteResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  metadata: Record<string, JsonValue>;
}

/** What the result's metadata reports of how the output was followed. */
export interface FollowFacts {
  readonly processId: string | undefined;
  readonly stats: FollowStats | undefined;
}

/** The metadata of a result: process id, the tails' drops and the follower's counts. */
export function commandMetadata(
  tails: Readonly<Record<OutputStream, TailBuffer>>,
  facts: FollowFacts,
): Record<string, JsonValue> {
  return {
    processId: facts.processId ?? null,
    outputTruncated: tails.stdout.truncated || tails.stderr.truncated,
    stdoutDroppedChars: tails.stdout.droppedChars,
    stdoutDroppedBytes: tails.stdout.droppedBytes,
    stderrDroppedChars: tails.stderr.droppedChars,
    stderrDroppedBytes: tails.stderr.droppedBytes,
    lastSeq: facts.stats?.cursor ?? 0,
    connections: facts.stats?.connections ?? 0,
    reconnects: facts.stats?.reconnects ?? 0,
  };
}

/** The host's live log: every decoded chunk, once and in order. */
export type LiveLog = (stream: OutputStream, text: string) => void;

/** A command's output: every decoded chunk kept in a bounded tail and passed to the live log. */
export class CommandOutput {
  readonly #tails: Record<OutputStream, TailBuffer>;
  readonly #onLog: LiveLog | undefined;

  constructor(tailChars: number, onLog: LiveLog | undefined) {
    this.#tails = { stdout: new TailBuffer(tailChars), stderr: new TailBuffer(tailChars) };
    this.#onLog = onLog;
  }

  /** The follower's sink: once and in order, into the tail and then the live log. */
  readonly sink: TextSink = (stream, text, ascii) => {
    this.#tails[stream].append(text, ascii);
    this.#onLog?.(stream, text);
  };

  /** The result of an exit, or of a timeout (`exit` null: the partial output). */
  result(exit: ExitStatus | null, facts: FollowFacts): ExecuteResult {
    return {
      exitCode: exit?.exitCode ?? null,
      signal: exit?.signal ?? null,
      timedOut: exit === null,
      stdout: this.#tails.stdout.toString(),
      stderr: this.#tails.stderr.toString(),
      metadata: commandMetadata(this.#tails, facts),
    };
  }
}
