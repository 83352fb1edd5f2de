import { CreateosError } from "@paperclipai/errors";
import { evicted } from "./follow-failure.js";
import type { FollowStats } from "./follow-stats.js";
import {
  DecodeScratch,
  type ExitStatus,
  judgeDataFrame,
  type OutputStream,
  parseExitFrame,
  type RawFrame,
} from "./output-frame.js";
import type { HeartbeatCadence } from "./stall-threshold.js";
import { Utf8StreamDecoder } from "./utf8-stream-decoder.js";

/**
 * Where decoded text goes, once and in order; a throw here is the sink's failure, never the
 * network's. `ascii` is true when every character of `text` is below U+0080.
 */
export type TextSink = (stream: OutputStream, text: string, ascii: boolean) => void;

/**
 * An error frame's `error` as it may go into `details`: a word such as `process_not_found`
 * (cut to 100 characters), or `null`. Any other text is the server's and may echo what it
 * was sent, the API key included (a key is never letters and underscores alone).
 */
function errorWord(error: unknown): string | null {
  return typeof error === "string" && /^[a-z_]+$/i.test(error) ? error.slice(0, 100) : null;
}

/**
 * The frames of every connection of one process, in order, to the sink: each data frame's
 * bytes once (replays past the cursor dropped), decoded across frame boundaries; heartbeats
 * teach the cadence; an error frame ends the follow.
 */
export class FrameDelivery {
  readonly #stats: FollowStats;
  readonly #cadence: HeartbeatCadence;
  readonly #sink: TextSink;
  readonly #decoder = new Utf8StreamDecoder();
  readonly #scratch = new DecodeScratch();
  #heartbeatsSeen = false;

  /** Moves `stats.cursor` and counts `stats.duplicates`. */
  constructor(stats: FollowStats, cadence: HeartbeatCadence, sink: TextSink) {
    this.#stats = stats;
    this.#cadence = cadence;
    this.#sink = sink;
  }

  /** The server has sent at least one heartbeat, on any connection. */
  get heartbeatsSeen(): boolean {
    return this.#heartbeatsSeen;
  }

  /** Handles one frame; returns the exit when it is the exit frame. */
  deliver(frame: RawFrame): ExitStatus | undefined {
    switch (frame.type) {
      case "heartbeat":
        this.#heartbeatsSeen = true;
        this.#cadence.onHeartbeat(Date.now());
        return undefined;
      case "data": {
        const decision = judgeDataFrame(frame, this.#stats.cursor, this.#scratch);
        if (decision.kind === "duplicate") {
          this.#stats.duplicates++;
          return undefined;
        }
        this.#cadence.interrupt();
        const text = this.#decoder.decode(decision.stream, decision.bytes);
        this.#stats.cursor = decision.seq;
        if (text !== "") this.#emit(decision.stream, text, this.#decoder.lastWasAscii);
        return undefined;
      }
      case "exit":
        return parseExitFrame(frame);
      case "error":
        if (frame.error === "output_offset_expired") throw evicted();
        throw new CreateosError("ERR_CREATEOS_OUTPUT_INVALID", "CreateOS process output is invalid.", {
          details: {
            reason: "error frame",
            error: errorWord(frame.error),
          },
        });
      default:
        // Unknown frame types are ignored: a newer server may add some.
        return undefined;
    }
  }

  /** Delivers what the decoders still hold (a cut UTF-8 sequence) once the output is complete. */
  flush(): void {
    for (const stream of ["stdout", "stderr"] as const) {
      const rest = this.#decoder.flush(stream);
      if (rest !== "") this.#emit(stream, rest, false);
    }
  }

  #emit(stream: OutputStream, text: string, ascii: boolean): void {
    try {
      this.#sink(stream, text, ascii);
    } catch (error) {
      throw new CreateosError(
        "ERR_CREATEOS_LIVE_LOG_FAILED",
        "The live log callback failed; the CreateOS command was stopped.",
        {
          cause: error,
        },
      );
    }
  }
}
