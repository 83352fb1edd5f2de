import { PaperclipError } from "@paperclipai/errors";
import { abortableDelay } from "./abortable-delay.js";
import { resolveApiKey, resolveApiOrigin } from "./api-url.js";
import { redirectError, statusError, transportFailure } from "./attempt-errors.js";
import type { AttemptExchange } from "./attempt-exchange.js";
import type { AttemptResult } from "./attempt-result.js";
import { AttemptScope } from "./attempt-scope.js";
import { type BackoffPolicy, DEFAULT_BACKOFF, parseRetryAfter, retryDelay } from "./backoff.js";
import type {
  BytesReply,
  CreateosClientOptions,
  CreateosRequest,
  DownloadReply,
  JsonReply,
} from "./client-types.js";
import { fetchAttempt } from "./fetch-attempt.js";
import { isRedirectStatus } from "./fetch-rejection.js";
import { neverReached } from "./never-reached.js";
import { exchangeStream, exchangeWhole } from "./node-attempt.js";
import { DEFAULT_MAX_REPLY_BYTES } from "./reply-body.js";
import { encodedReplyError, isIdentityEncoding } from "./reply-encoding.js";
import { PacerRegistry, type RequestPacer } from "./request-pacer.js";
import { type BodyMode, requestPayload } from "./request-payload.js";
import type { StreamBody } from "./stream-body.js";
import { DEFAULT_TOKEN_BUCKET } from "./token-bucket.js";

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
    // Whether some attempt may have reached CreateOS: a later one never connecting does not
    // make the call one CreateOS cannot have acted on (`details.reached`).
    let reached = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#attempt(request, mode, reached);
      } catch (error) {
        if (!PaperclipError.is(error, "ERR_CREATEOS_CONNECTION") || error.details.reached !== false)
          reached = true;
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

  /**
   * One attempt (`reachedBefore`: an earlier attempt of the call may have reached CreateOS):
   * paced start, then the exchange through node:http(s) (a reply read whole, or a
   * stream, with no `fetch` handed in) or through `fetch`.
   */
  async #attempt(request: CreateosRequest, mode: BodyMode, reachedBefore = false): Promise<AttemptResult> {
    await this.#pacer.acquire(request.priority ?? "normal", startSignal(request));
    const scope = new AttemptScope(request.signal, request.timeoutMs ?? this.#timeoutMs);
    try {
      const exchange: AttemptExchange = {
        request,
        url: this.#url(request),
        payload: requestPayload(this.#apiKey, request, mode),
        scope,
        maxReplyBytes: this.#maxReplyBytes,
        admitStatus: (status, retryAfter, contentEncoding) =>
          this.#admitStatus(request, status, retryAfter, contentEncoding),
        transportError: (retryable = true, cause?: unknown) =>
          transportFailure({
            operation: request.operation,
            callerSignal: request.signal,
            timedOut: scope.timedOut,
            retryable,
            reached: reachedBefore || !neverReached(cause),
          }),
      };
      if (this.#fetch === undefined && request.upload === undefined) {
        if (mode === "json" || mode === "bytes") return await exchangeWhole(exchange, mode);
        if (mode === "stream") return await exchangeStream(exchange);
      }
      return await fetchAttempt(exchange, mode, this.#fetch);
    } catch (error) {
      scope.release();
      request.onAttemptFailed?.(error);
      throw error;
    }
  }

  /**
   * True for a 2xx, false for a status the caller allows. A redirect (never followed: the
   * transports hand it back) and any other status are errors; the pacer learns from each reply.
   */
  #admitStatus(
    request: CreateosRequest,
    status: number,
    retryAfter: string | null,
    contentEncoding: string | null,
  ): boolean {
    if (isRedirectStatus(status)) throw redirectError(request.operation);
    // Capped here, before the pacer holds every later call (kills and deletes too) for it:
    // a hostile `Retry-After` could otherwise park them for years, or past a timer's range.
    const asked = parseRetryAfter(retryAfter, Date.now());
    const retryAfterMs = asked === undefined ? undefined : Math.min(asked, this.#backoff.maxRetryAfterMs);
    this.#pacer.observe(status, retryAfterMs);
    if (status >= 200 && status < 300) {
      if (!isIdentityEncoding(contentEncoding)) throw encodedReplyError(request.operation);
      return true;
    }
    if (request.allowStatuses?.includes(status)) return false;
    throw statusError(request.operation, status, retryAfterMs);
  }
}

/** What stops a call before it starts: its own signal and its start signal. */
function startSignal(request: CreateosRequest): AbortSignal | undefined {
  if (request.startSignal === undefined) return request.signal;
  if (request.signal === undefined) return request.startSignal;
  return AbortSignal.any([request.signal, request.startSignal]);
}
