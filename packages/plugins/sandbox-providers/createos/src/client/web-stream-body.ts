import type { ChunkHandler, StreamBody } from "./stream-body.js";

/**
 * A fetch body (a handed-in `fetch`) as a `StreamBody`. An abort cancels the reader itself,
 * which settles the read it is waiting on: fetch's own signal is not enough once the headers
 * are in, since undici holds the request's abort controller weakly, so after a garbage
 * collection an abort no longer reaches a body being read, and a stalled connection would
 * be followed for ever.
 */
export function webStreamBody(body: ReadableStream<Uint8Array>): StreamBody {
  return {
    async pump(onChunk: ChunkHandler, signal: AbortSignal): Promise<boolean> {
      const reader = body.getReader();
      const cancel = (): void => {
        reader.cancel(signal.reason).catch(() => {});
      };
      signal.addEventListener("abort", cancel, { once: true });
      let ended = false;
      try {
        for (;;) {
          if (signal.aborted) throw signal.reason;
          const { done, value } = await reader.read();
          // A cancelled reader's pending read settles as done: the abort is the outcome.
          if (signal.aborted) throw signal.reason;
          if (done) {
            ended = true;
            return true;
          }
          if (onChunk(value)) return false;
        }
      } finally {
        signal.removeEventListener("abort", cancel);
        // Left early (stopped, a handler's error): the rest of the body is not wanted.
        if (!ended) reader.cancel().catch(() => {});
      }
    },
  };
}
