import type { IncomingMessage } from "node:http";
import { PaperclipError } from "@paperclipai/errors";
import type { AttemptExchange } from "./attempt-exchange.js";
import { type AttemptResult, emptyResult, wholeResult } from "./attempt-result.js";
import { type NodeRequestInit, sendNodeRequest } from "./node-request.js";
import { nodeStreamBody } from "./node-stream-body.js";
import { replyTooLarge } from "./reply-body.js";
import { requestWhole, type WholeReply } from "./whole-reply-request.js";

/**
 * A reply read whole through node:http(s) (no `fetch` handed in): the same status policy,
 * and every failure of the exchange is a network failure.
 */
export async function exchangeWhole(
  exchange: AttemptExchange,
  mode: "json" | "bytes",
): Promise<AttemptResult> {
  const { request, scope, maxReplyBytes: maxBytes } = exchange;
  let reply: WholeReply;
  try {
    reply = await requestWhole(exchange.url, {
      ...nodeRequest(exchange),
      maxBytes,
      tooLarge: (declared) => replyTooLarge(request.operation, maxBytes, declared),
    });
  } catch (error) {
    if (PaperclipError.is(error)) throw error;
    throw exchange.transportError(true, error);
  }
  scope.release();
  if (!exchange.admitStatus(reply.status, reply.retryAfter, reply.contentEncoding))
    return emptyResult(mode, reply.status);
  return wholeResult(mode, reply.status, reply.body ?? Buffer.alloc(0));
}

/**
 * A stream through node:http(s) (no `fetch` handed in): the same status policy, and every
 * failure of the exchange, the body's included, is a network failure.
 */
export async function exchangeStream(exchange: AttemptExchange): Promise<AttemptResult> {
  const { scope } = exchange;
  let response: IncomingMessage;
  try {
    response = await sendNodeRequest(exchange.url, nodeRequest(exchange));
  } catch (error) {
    throw exchange.transportError(true, error);
  }
  const status = response.statusCode ?? 0;
  // The body of any other reply (it may echo the request, key included) is never read.
  if (status < 200 || status >= 300) response.destroy();
  let admitted: boolean;
  try {
    admitted = exchange.admitStatus(
      status,
      response.headers["retry-after"] ?? null,
      response.headers["content-encoding"] ?? null,
    );
  } catch (error) {
    response.destroy();
    throw error;
  }
  if (!admitted) {
    scope.release();
    return emptyResult("stream", status);
  }
  scope.stopDeadline();
  const stream = nodeStreamBody(response, () => exchange.transportError());
  return { kind: "stream", status, body: stream };
}

/** What `node:http(s)` sends for an attempt: its method, headers and in-memory body, aborted with the attempt. */
function nodeRequest(exchange: AttemptExchange): NodeRequestInit {
  const { headers, body } = exchange.payload;
  return { method: exchange.request.method, headers, body, signal: exchange.scope.signal };
}
