import type { IncomingMessage } from "node:http";
import { PaperclipError } from "@paperclipai/errors";
import { abortableDelay } from "./abortable-delay.js";
import { resolveApiKey, resolveApiOrigin } from "./api-url.js";
import { redirectError, statusError, transportFailure } from "./attempt-errors.js";
import { type AttemptResult, emptyResult } from "./attempt-result.js";
import { AttemptScope } from "./attempt-scope.js";
import { type BackoffPolicy, DEFAULT_BACKOFF, parseRetryAfter, retryDelay } from "./backoff.js";
import type {
  BytesReply,
  CreateosClientOptions,
  CreateosRequest,
  DownloadReply,
  JsonReply,
} from "./client-types.js";
import { parseEnvelope } from "./envelope.js";
import { isNetworkFailure, isRedirectStatus, isRefusedRedirect } from "./fetch-rejection.js";
import { type NodeRequestInit, sendNodeRequest } from "./node-request.js";
import { nodeStreamBody } from "./node-stream-body.js";
import { DEFAULT_MAX_REPLY_BYTES, readCappedBody, replyTooLarge, watchedReplyBody } from "./reply-body.js";
import { PacerRegistry, type RequestPacer } from "./request-pacer.js";
import { type BodyMode, requestPayload } from "./request-payload.js";
import type { StreamBody } from "./stream-body.js";
import { sendStreamed } from "./streamed-request.js";
import { DEFAULT_TOKEN_BUCKET } from "./token-bucket.js";
import { UploadRelay } from "./upload-body.js";
import { webStreamBody } from "./web-stream-body.js";
import { requestWhole, type WholeReply } from "./whole-reply-request.js";

export type {
  BytesReply,
  CreateosClientOptions,
  CreateosRequest,
  DownloadReply,
  HttpMethod,
  JsonReply,
} from "./client-types.js";

/**
 * The CreateOS HTTP client: one origin, one key, `X-Api-Key` on every call, redirects
 * refused, provider bodies of failed calls never read, retries for idempotent calls only,
 * and every request start paced per origin and key.
 */
export class CreateosClient {
  readonly origin: string;
  readonly #apiKey: string;
  /** A fetch handed in; without one, replies read whole go through node:http(s). */
  readonly #fetch: typeof fetch | undefined;
  readonly #pacer: RequestPacer;
  readonly #backoff: BackoffPolicy;
  readonly #maxAttempts: number;
  readonly #timeoutMs: number;
  readonly #maxReplyBytes: number;
  readonly #random: () => number;

  constructor(options: CreateosClientOptions = {}) {
    this.origin = resolveApiOrigin(options.apiUrl);
    this.#apiKey = resolveApiKey(this.origin, options.apiKey, options.env ?? process.env);
    this.#fetch = options.fetch;
    this.#pacer = (options.pacers ?? new PacerRegistry()).get(
      this.origin,
      this.#apiKey,
      options.rateLimit ?? DEFAULT_TOKEN_BUCKET,
    );
    this.#backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? 5);
    this.#timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.#maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
    this.#random = options.random ?? Math.random;
  }

  get backoff(): BackoffPolicy {
    return this.#backoff;
  }

  random(): number {
    return this.#random();
  }

  async json(request: CreateosRequest): Promise<JsonReply> {
    const result = await this.#withRetries(request, "json");
    return result.kind === "json"
      ? { status: result.status, data: result.data }
      : { status: result.status, data: null };
  }

  async bytes(request: CreateosRequest): Promise<BytesReply> {
    const result = await this.#withRetries(request, "bytes");
    return result.kind === "bytes"
      ? { status: result.status, bytes: result.bytes }
      : { status: result.status, bytes: null };
  }

  /**
   * A body too large to hold: retried like `bytes()` until the headers arrive, then
   * handed over as a stream whose deadline restarts with every chunk.
   */
  async download(request: CreateosRequest): Promise<DownloadReply> {
    const result = await this.#withRetries(request, "download");
    return result.kind === "download"
      ? { status: result.status, body: result.body }
      : { status: result.status, body: null };
  }

  /**
   * One attempt of a streaming call; the caller owns reconnects. The deadline covers the
   * headers only; liveness of the body is the caller's watchdog. `body` is `null` for an
   * allowed non-2xx status, and for a 2xx reply without a body.
   */
  async stream(request: CreateosRequest): Promise<{ status: number; body: StreamBody | null }> {
    const result = await this.#attempt(request, "stream");
    return result.kind === "stream" ? result : { status: result.status, body: null };
  }

  async #withRetries(request: CreateosRequest, mode: BodyMode): Promise<AttemptResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#attempt(request, mode);
      } catch (error) {
        const retryable = PaperclipError.is(error) && error.retryable;
        const maxAttempts = request.maxAttempts ?? this.#maxAttempts;
        if (!request.idempotent || !retryable || attempt >= maxAttempts || request.signal?.aborted)
          throw error;
        const retryAfterMs = PaperclipError.is(error) ? error.retryAfterMs : undefined;
        await abortableDelay(retryDelay(attempt, this.#backoff, this.#random, retryAfterMs), request.signal);
      }
    }
  }

  #url(request: CreateosRequest): string {
    const url = new URL(`${this.origin}/v1${request.path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, String(value));
    return url.href;
  }

  /** One attempt: paced start, send, status check, then the reply in the caller's mode. */
  async #attempt(request: CreateosRequest, mode: BodyMode): Promise<AttemptResult> {
    await this.#pacer.acquire(request.priority ?? "normal", request.signal);
    const scope = new AttemptScope(request.signal, request.timeoutMs ?? this.#timeoutMs);
    try {
      if (this.#fetch === undefined && request.upload === undefined) {
        if (mode === "json" || mode === "bytes") return await this.#exchangeWhole(request, mode, scope);
        if (mode === "stream") return await this.#exchangeStream(request, scope);
      }
      const response = await this.#send(request, mode, scope);
      if (!(await this.#admit(request, response))) {
        scope.release();
        return emptyResult(mode, response.status);
      }
      return await this.#take(request, mode, response, scope);
    } catch (error) {
      scope.release();
      throw error;
    }
  }

  /** Sends through fetch, or `node:http(s)` for a streamed upload; a failure becomes a coded error. */
  async #send(request: CreateosRequest, mode: BodyMode, scope: AttemptScope): Promise<Response> {
    const { headers, body } = requestPayload(this.#apiKey, request, mode);
    const upload = new UploadRelay();
    try {
      if (request.upload !== undefined) {
        return await sendStreamed(this.#url(request), {
          method: request.method,
          headers,
          body: upload.relay(request.upload(), () => scope.refresh()),
          signal: scope.signal,
        });
      }
      // Never followed, so the key never goes to a Location; the rejection it causes is told
      // apart from a connection failure below, so it is not retried.
      const init = { method: request.method, headers, redirect: "error", signal: scope.signal } as const;
      return await (this.#fetch ?? fetch)(this.#url(request), body === undefined ? init : { ...init, body });
    } catch (error) {
      // A source that failed (an unreadable file) is the cause, not the connection.
      if (upload.failure !== undefined) throw upload.failure.error;
      if (isRefusedRedirect(error)) throw redirectError(request.operation);
      // node:http (streamed uploads) fails with plain errors (ECONNRESET): all of them are network failures.
      throw this.#transportError(request, scope, request.upload !== undefined || isNetworkFailure(error));
    }
  }

  /**
   * A reply read whole through node:http(s) (no `fetch` handed in): the same status policy,
   * and every failure of the exchange is a network failure.
   */
  async #exchangeWhole(
    request: CreateosRequest,
    mode: "json" | "bytes",
    scope: AttemptScope,
  ): Promise<AttemptResult> {
    const maxBytes = this.#maxReplyBytes;
    let reply: WholeReply;
    try {
      reply = await requestWhole(this.#url(request), {
        ...this.#nodeRequest(request, mode, scope),
        maxBytes,
        tooLarge: (declared) => replyTooLarge(request.operation, maxBytes, declared),
      });
    } catch (error) {
      if (PaperclipError.is(error)) throw error;
      throw this.#transportError(request, scope);
    }
    scope.release();
    if (!this.#admitStatus(request, reply.status, reply.retryAfter)) return emptyResult(mode, reply.status);
    return wholeResult(mode, reply.status, reply.body ?? Buffer.alloc(0));
  }

  /**
   * A stream through node:http(s) (no `fetch` handed in): the same status policy, and every
   * failure of the exchange, the body's included, is a network failure.
   */
  async #exchangeStream(request: CreateosRequest, scope: AttemptScope): Promise<AttemptResult> {
    let response: IncomingMessage;
    try {
      response = await sendNodeRequest(this.#url(request), this.#nodeRequest(request, "stream", scope));
    } catch {
      throw this.#transportError(request, scope);
    }
    const status = response.statusCode ?? 0;
    // The body of any other reply (it may echo the request, key included) is never read.
    if (status < 200 || status >= 300) response.destroy();
    if (!this.#admitStatus(request, status, response.headers["retry-after"] ?? null)) {
      scope.release();
      return emptyResult("stream", status);
    }
    scope.stopDeadline();
    const stream = nodeStreamBody(response, () => this.#transportError(request, scope));
    return { kind: "stream", status, body: stream };
  }

  /** What `node:http(s)` sends for an attempt: its method, headers and in-memory body, aborted with the attempt. */
  #nodeRequest(request: CreateosRequest, mode: BodyMode, scope: AttemptScope): NodeRequestInit {
    const { headers, body } = requestPayload(this.#apiKey, request, mode);
    return { method: request.method, headers, body, signal: scope.signal };
  }

  /** True for a 2xx; the body of any other reply (it may echo the request, key included) is never read. */
  async #admit(request: CreateosRequest, response: Response): Promise<boolean> {
    if (!response.ok) await discardBody(response);
    return this.#admitStatus(request, response.status, response.headers.get("retry-after"));
  }

  /**
   * True for a 2xx, false for a status the caller allows. A redirect (never followed: the
   * transports hand it back) and any other status are errors; the pacer learns from each reply.
   */
  #admitStatus(request: CreateosRequest, status: number, retryAfter: string | null): boolean {
    if (isRedirectStatus(status)) throw redirectError(request.operation);
    const retryAfterMs = parseRetryAfter(retryAfter, Date.now());
    this.#pacer.observe(status, retryAfterMs);
    if (status >= 200 && status < 300) return true;
    if (request.allowStatuses?.includes(status)) return false;
    throw statusError(request.operation, status, retryAfterMs);
  }

  /** A 2xx reply in the caller's mode; the scope is released, or handed to what still reads. */
  async #take(
    request: CreateosRequest,
    mode: BodyMode,
    response: Response,
    scope: AttemptScope,
  ): Promise<AttemptResult> {
    const status = response.status;
    if (mode === "stream") {
      scope.stopDeadline();
      return { kind: "stream", status, body: response.body === null ? null : webStreamBody(response.body) };
    }
    if (mode === "download") {
      scope.refresh();
      const body = watchedReplyBody(response.body, {
        onProgress: () => scope.refresh(),
        toError: () => this.#transportError(request, scope),
        onSettled: () => scope.close(),
      });
      return { kind: "download", status, body };
    }
    const bytes = await this.#readWhole(request, response, scope);
    scope.release();
    return wholeResult(mode, status, bytes);
  }

  async #readWhole(request: CreateosRequest, response: Response, scope: AttemptScope): Promise<Buffer> {
    try {
      return await readCappedBody(response, this.#maxReplyBytes, request.operation);
    } catch (error) {
      if (PaperclipError.is(error)) throw error;
      throw this.#transportError(request, scope);
    }
  }

  #transportError(request: CreateosRequest, scope: AttemptScope, retryable = true): unknown {
    return transportFailure({
      operation: request.operation,
      callerSignal: request.signal,
      timedOut: scope.timedOut,
      retryable,
    });
  }
}

/** A 2xx reply read whole, in its mode. */
function wholeResult(mode: "json" | "bytes", status: number, bytes: Buffer): AttemptResult {
  if (mode === "bytes") return { kind: "bytes", status, bytes };
  // 204 has no body by definition; every other success must carry the envelope.
  const data = status === 204 ? {} : parseEnvelope(new TextDecoder().decode(bytes));
  return { kind: "json", status, data };
}

async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
