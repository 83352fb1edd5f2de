import { readerCancelledOnAbort } from "./reader-cancelled-on-abort.js";
import type { ChunkHandler, StreamBody } from "./stream-body.js";

/**
 * A fetch body (a handed-in `fetch`) as a `StreamBody`. An abort cancels the reader itself
 * (`readerCancelledOnAbort`), which settles the read it is waiting on.
 */
export function webStreamBody(body: ReadableStream<Uint8Array>): StreamBody {
  return {
    async pump(onChunk: ChunkHandler, signal: AbortSignal): Promise<boolean> {
      const { reader, release } = readerCancelledOnAbort(body, signal);
      let ended = false;
      try {
        for (;;) {
          if (signal.aborted) throw signal.reason;
          const { done, value } = await reader.read();
          if (signal.aborted) throw signal.reason;
          if (done) {
            ended = true;
            return true;
          }
          if (onChunk(value)) return false;
        }
      } finally {
        // Left early (stopped, a handler's error): the rest of the body is not wanted.
        release(ended);
      }
    },
  };
}
