/** A body's reader, and how to let it go. */
export interface AbortableReader {
  readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  /** Detaches from the signal; a body not read to its end (`ended` false) has the rest cancelled. */
  release(ended: boolean): void;
}

/**
 * `body`'s reader, cancelled by `signal`'s abort itself. Fetch's own signal is not enough once
 * the headers are in: undici holds the request's abort controller weakly, so after a garbage
 * collection an abort no longer reaches a body being read, and a stalled connection would be
 * followed for ever. A cancelled reader's pending read settles as done: whoever reads checks
 * the signal after each read, and the abort is the outcome.
 */
export function readerCancelledOnAbort(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): AbortableReader {
  const reader = body.getReader();
  const cancel = (): void => {
    reader.cancel(signal.reason).catch(() => undefined);
  };
  signal.addEventListener("abort", cancel, { once: true });
  return {
    reader,
    release: (ended) => {
      signal.removeEventListener("abort", cancel);
      if (!ended) reader.cancel().catch(() => undefined);
    },
  };
}
