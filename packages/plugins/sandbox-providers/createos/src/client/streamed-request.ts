import type { IncomingHttpHeaders } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { awaitedResponse } from "./awaited-response.js";

export interface StreamedRequestInit {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: AsyncIterable<Uint8Array>;
  readonly signal: AbortSignal;
}

function toHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

/**
 * Sends a request whose body is streamed, and answers with a fetch `Response`. fetch (undici,
 * Node 20 to 24) reads a streamed request body ahead of the socket without bound, so an
 * archive of any size would end up in memory; `node:http` writes a chunk only when the
 * socket has taken the last one. Redirects are never followed: a 3xx is handed back to the client, which refuses it.
 */
export function sendStreamed(url: string, init: StreamedRequestInit): Promise<Response> {
  const target = new URL(url);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  const request = send(target, { method: init.method, headers: init.headers, signal: init.signal });
  return new Promise<Response>((resolve, reject) => {
    awaitedResponse(request).then((response) => {
      const status = response.statusCode ?? 0;
      const body =
        status === 204 || status === 304 ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>);
      if (body === null) response.resume();
      resolve(new Response(body, { status, headers: toHeaders(response.headers) }));
    }, reject);
    // A reply can come before the whole body was sent (a 401, a 413); then the body's
    // failure does not matter, and a failure before any reply rejects.
    pipeline(Readable.from(init.body, { objectMode: false }), request).catch(reject);
  });
}
