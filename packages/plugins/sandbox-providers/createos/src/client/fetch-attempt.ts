import { PaperclipError } from "@paperclipai/errors";
import { redirectError } from "./attempt-errors.js";
import type { AttemptExchange } from "./attempt-exchange.js";
import { type AttemptResult, emptyResult, wholeResult } from "./attempt-result.js";
import { isNetworkFailure, isRefusedRedirect } from "./fetch-rejection.js";
import { readCappedBody, watchedReplyBody } from "./reply-body.js";
import type { BodyMode } from "./request-payload.js";
import { sendStreamed } from "./streamed-request.js";
import { UploadRelay } from "./upload-body.js";
import { webStreamBody } from "./web-stream-body.js";

/**
 * One attempt through `fetch` (or `node:http(s)` for a streamed upload): send, status check,
 * then the reply in the caller's mode. The scope is released, or handed to what still reads.
 */
export async function fetchAttempt(
  exchange: AttemptExchange,
  mode: BodyMode,
  fetchImpl: typeof fetch | undefined,
): Promise<AttemptResult> {
  const response = await send(exchange, fetchImpl);
  if (!(await admit(exchange, response))) {
    exchange.scope.release();
    return emptyResult(mode, response.status);
  }
  return await take(exchange, mode, response);
}

/** Sends through fetch, or `node:http(s)` for a streamed upload; a failure becomes a coded error. */
async function send(exchange: AttemptExchange, fetchImpl: typeof fetch | undefined): Promise<Response> {
  const { request, scope } = exchange;
  const { headers, body } = exchange.payload;
  const upload = new UploadRelay();
  try {
    if (request.upload !== undefined) {
      return await sendStreamed(exchange.url, {
        method: request.method,
        headers,
        body: upload.relay(request.upload(), () => scope.refresh()),
        signal: scope.signal,
      });
    }
    // Never followed, so the key never goes to a Location; the rejection it causes is told
    // apart from a connection failure below, so it is not retried.
    const init = { method: request.method, headers, redirect: "error", signal: scope.signal } as const;
    return await (fetchImpl ?? fetch)(exchange.url, body === undefined ? init : { ...init, body });
  } catch (error) {
    // A source that failed (an unreadable file) is the cause, not the connection.
    if (upload.failure !== undefined) throw upload.failure.error;
    if (isRefusedRedirect(error)) throw redirectError(request.operation);
    // node:http (streamed uploads) fails with plain errors (ECONNRESET): all of them are network failures.
    throw exchange.transportError(request.upload !== undefined || isNetworkFailure(error), error);
  }
}

/**
 * True for a 2xx; the body of any other reply (it may echo the request, key included) is
 * never read, nor that of a reply refused for its encoding.
 */
async function admit(exchange: AttemptExchange, response: Response): Promise<boolean> {
  if (!response.ok) await discardBody(response);
  const { headers } = response;
  try {
    return exchange.admitStatus(response.status, headers.get("retry-after"), headers.get("content-encoding"));
  } catch (error) {
    await discardBody(response);
    throw error;
  }
}

/** A 2xx reply in the caller's mode; the scope is released, or handed to what still reads. */
async function take(exchange: AttemptExchange, mode: BodyMode, response: Response): Promise<AttemptResult> {
  const { scope } = exchange;
  const status = response.status;
  if (mode === "stream") {
    scope.stopDeadline();
    return { kind: "stream", status, body: response.body === null ? null : webStreamBody(response.body) };
  }
  if (mode === "download") {
    scope.refresh();
    const body = watchedReplyBody(response.body, {
      signal: scope.signal,
      onProgress: () => scope.refresh(),
      toError: () => exchange.transportError(),
      onSettled: () => scope.close(),
    });
    return { kind: "download", status, body };
  }
  const bytes = await readWhole(exchange, response);
  scope.release();
  return wholeResult(mode, status, bytes);
}

async function readWhole(exchange: AttemptExchange, response: Response): Promise<Buffer> {
  try {
    return await readCappedBody(response, exchange.maxReplyBytes, exchange.request.operation);
  } catch (error) {
    if (PaperclipError.is(error)) throw error;
    throw exchange.transportError();
  }
}

async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
