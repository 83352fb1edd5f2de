/** Called with each chunk of a streamed body, in order; true stops the reading (the rest is not wanted). */
export type ChunkHandler = (chunk: Uint8Array) => boolean;

/**
 * The body of a streamed reply (an NDJSON output stream), read by handing every chunk to a
 * handler as it arrives: the chunk is processed before the next one is read, so nothing is
 * queued or copied on its way in and a slow handler slows the sender down.
 */
export interface StreamBody {
  /**
   * Reads the body to its end (resolves `true`) or until `onChunk` returns true (resolves
   * `false`; the rest is cancelled). A handler's throw or a failed body rejects with that
   * error; an abort of `signal` cancels the body at once, even while a read is pending, and
   * rejects with the signal's reason.
   */
  pump(onChunk: ChunkHandler, signal: AbortSignal): Promise<boolean>;
}
