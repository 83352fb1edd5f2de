import type { IncomingMessage } from "node:http";
import { type NodeRequestInit, sendNodeRequest } from "./node-request.js";

export interface WholeReply {
  readonly status: number;
  readonly retryAfter: string | null;
  /** The reply's `Content-Encoding`; its body is never decoded here. */
  readonly contentEncoding: string | null;
  /** The body of a 2xx reply, read whole; `null` for any other status (never read). */
  readonly body: Buffer | null;
}

export interface WholeRequestInit extends NodeRequestInit {
  readonly maxBytes: number;
  /** The error of a body larger than `maxBytes` (`declared` when Content-Length said so). */
  readonly tooLarge: (declared: number | undefined) => Error;
}

/**
 * A request whose reply is read whole, through `node:http(s)` (see `sendNodeRequest`). The
 * body of a non-2xx reply is never read (the socket is dropped instead); a body past
 * `maxBytes` is refused up front when Content-Length says so, else as soon as it passes.
 */
export async function requestWhole(url: string, init: WholeRequestInit): Promise<WholeReply> {
  return readWhole(await sendNodeRequest(url, init), init);
}

function readWhole(response: IncomingMessage, init: WholeRequestInit): Promise<WholeReply> {
  const status = response.statusCode ?? 0;
  const retryAfter = response.headers["retry-after"] ?? null;
  const contentEncoding = response.headers["content-encoding"] ?? null;
  if (status < 200 || status >= 300) {
    response.destroy();
    return Promise.resolve({ status, retryAfter, contentEncoding, body: null });
  }
  const declared = Number(response.headers["content-length"] ?? Number.NaN);
  if (Number.isSafeInteger(declared) && declared > init.maxBytes) {
    response.destroy();
    return Promise.reject(init.tooLarge(declared));
  }
  return new Promise<WholeReply>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > init.maxBytes) response.destroy(init.tooLarge(undefined));
      else chunks.push(chunk);
    });
    response.once("end", () => {
      // A body without a length ends when its connection does, so an abort cutting it also
      // ends it: the bytes so far are not the reply.
      if (init.signal.aborted) reject(init.signal.reason);
      else resolve({ status, retryAfter, contentEncoding, body: Buffer.concat(chunks, size) });
    });
    // The caller's abort fails the read with its reason, as it fails the request.
    response.once("error", (error) => reject(init.signal.aborted ? init.signal.reason : error));
    // A connection that closes before the end (a reset, the caller's abort) is a failed read.
    response.once("close", () => {
      if (!response.complete) reject(new Error("The reply ended before its body did."));
    });
  });
}
