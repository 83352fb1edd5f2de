import type { IncomingMessage } from "node:http";
import type { ChunkHandler, StreamBody } from "./stream-body.js";

/**
 * A `node:http` response as a `StreamBody`: each `data` event is handed to the handler at
 * once, with no stream adapter, queue or copy in between. A body that closes before its end
 * (a reset, a cut chunked body) fails with `toError()`. Stopped early, the response is left
 * to finish on its own, so that its keep-alive socket can serve the next request; whoever
 * stops reading aborts the request if it is still out (the server owes it nothing more).
 */
export function nodeStreamBody(response: IncomingMessage, toError: () => unknown): StreamBody {
  return {
    pump(onChunk: ChunkHandler, signal: AbortSignal): Promise<boolean> {
      return new Promise<boolean>((resolve, reject) => {
        let settled = false;
        const settle = (outcome: () => void): void => {
          if (settled) return;
          settled = true;
          signal.removeEventListener("abort", onAbort);
          response.off("end", onEnd);
          response.off("close", onClose);
          outcome();
        };
        const onAbort = (): void =>
          settle(() => {
            response.destroy();
            reject(signal.reason);
          });
        const onEnd = (): void => settle(() => resolve(true));
        const onClose = (): void => settle(() => reject(toError()));
        const onData = (chunk: Buffer): void => {
          if (settled) return;
          let stop: boolean;
          try {
            stop = onChunk(chunk);
          } catch (error) {
            settle(() => {
              response.destroy();
              reject(error);
            });
            return;
          }
          if (stop) settle(() => resolve(false));
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        // Errors end in "close"; the listener keeps an error from being thrown as unhandled.
        response.on("error", () => {});
        response.on("data", onData);
        response.once("end", onEnd);
        response.once("close", onClose);
      });
    },
  };
}
