/**
 * The chunks of a fetch body until it ends or `signal` aborts; an abort cancels the body
 * itself and ends the iteration by throwing the signal's reason. Fetch's own signal is not
 * enough once the headers are in: undici holds the request's abort controller weakly, so
 * after a garbage collection an abort no longer reaches a body being read, and a stalled
 * connection would be followed for ever.
 */
export async function* chunksUntilAborted(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = body.getReader();
  let ended = false;
  const cancel = (): void => {
    reader.cancel(signal.reason).catch(() => {});
  };
  signal.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (signal.aborted) throw signal.reason;
      if (done) {
        ended = true;
        return;
      }
      yield value;
    }
  } finally {
    signal.removeEventListener("abort", cancel);
    // Left early (an exit frame, an error): the rest of the body is not wanted.
    if (!ended) reader.cancel().catch(() => {});
  }
}
