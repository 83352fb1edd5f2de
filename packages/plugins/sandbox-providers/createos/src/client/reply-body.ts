import { Readable } from "node:stream";
import { CreateosError } from "@paperclipai/errors";
import { readerCancelledOnAbort } from "./reader-cancelled-on-abort.js";

/** Default cap of a reply read into memory (JSON envelopes, small files such as the lease marker). */
export const DEFAULT_MAX_REPLY_BYTES = 8 * 1024 * 1024;

export function replyTooLarge(
  operation: string,
  limitBytes: number,
  declaredBytes: number | undefined,
): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_REPLY_TOO_LARGE",
    `CreateOS reply is larger than ${limitBytes} bytes during ${operation}.`,
    { details: { operation, limitBytes, ...(declaredBytes === undefined ? {} : { declaredBytes }) } },
  );
}

/**
 * The whole body, refused once it passes `limitBytes`: up front when `Content-Length` says
 * so, else as soon as the bytes read pass it (the rest is never read).
 */
export async function readCappedBody(
  response: Response,
  limitBytes: number,
  operation: string,
): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isSafeInteger(declared) && declared > limitBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw replyTooLarge(operation, limitBytes, declared);
  }
  if (response.body === null) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel().catch(() => undefined);
      throw replyTooLarge(operation, limitBytes, undefined);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

export interface BodyWatch {
  /**
   * The attempt's signal (its deadline, the caller's). Aborted, the body's reader is cancelled
   * here (`readerCancelledOnAbort`): a stalled download was otherwise read for ever.
   */
  readonly signal: AbortSignal;
  /** Called for every chunk that moves (restarts the caller's deadline). */
  readonly onProgress: () => void;
  /** The coded error a failed read becomes. */
  readonly toError: (cause: unknown) => unknown;
  /** Called once, when the body ended, failed or was abandoned. */
  readonly onSettled: () => void;
}

/** A reply body as a Node stream, read only as fast as its consumer reads it. */
export function watchedReplyBody(body: ReadableStream<Uint8Array> | null, watch: BodyWatch): Readable {
  let settled = false;
  const settleOnce = (): void => {
    if (settled) return;
    settled = true;
    watch.onSettled();
  };
  async function* relay(): AsyncGenerator<Uint8Array> {
    const { signal } = watch;
    const read = body === null ? null : readerCancelledOnAbort(body, signal);
    let ended = false;
    try {
      if (read === null) return;
      for (;;) {
        if (signal.aborted) throw signal.reason;
        const { done, value } = await read.reader.read();
        if (signal.aborted) throw signal.reason;
        if (done) {
          ended = true;
          return;
        }
        watch.onProgress();
        yield value;
      }
    } catch (error) {
      throw watch.toError(error);
    } finally {
      read?.release(ended);
      settleOnce();
    }
  }
  const stream = Readable.from(relay(), { objectMode: false });
  // Destroyed, the stream waits for the generator to return, which waits for the read under way:
  // settled first, the attempt is aborted and that read ends at once. (Destroyed before its
  // first read, the generator never runs at all.)
  const destroyRelay = stream._destroy.bind(stream);
  stream._destroy = (error, callback) => {
    settleOnce();
    destroyRelay(error, callback);
  };
  return stream;
}
