import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { awaitedResponse } from "./awaited-response.js";

export interface NodeRequestInit {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array | undefined;
  readonly signal: AbortSignal;
}

/**
 * Sends a request with an in-memory body through `node:http(s)` and its keep-alive agent,
 * and resolves with the response once its headers are in: a fraction of fetch's CPU per call
 * (fetch builds WHATWG requests, bodies and signals for each). Redirects are never followed
 * (a 3xx comes back as a status). `signal` aborts the request and its response.
 */
export function sendNodeRequest(url: string, init: NodeRequestInit): Promise<IncomingMessage> {
  const target = new URL(url);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  const headers =
    init.body === undefined
      ? init.headers
      : { ...init.headers, "Content-Length": String(byteLength(init.body)) };
  const request = send(target, { method: init.method, headers, signal: init.signal });
  const response = awaitedResponse(request);
  request.end(init.body);
  return response;
}

function byteLength(body: string | Uint8Array): number {
  return typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
}
