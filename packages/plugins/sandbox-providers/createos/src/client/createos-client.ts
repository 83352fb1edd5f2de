import type { Readable } from "node:stream";
import { CreateosApiError, CreateosError, PaperclipError } from "@paperclipai/errors";
import { abortableDelay } from "./abortable-delay.js";
import { resolveApiKey, resolveApiOrigin } from "./api-url.js";
import { type BackoffPolicy, DEFAULT_BACKOFF, parseRetryAfter, retryDelay } from "./backoff.js";
import { type JsonObject, parseEnvelope } from "./envelope.js";
import { isNetworkFailure, isRedirectStatus, isRefusedRedirect } from "./fetch-rejection.js";
import type { CreateosOperation } from "./operation.js";
import { DEFAULT_MAX_REPLY_BYTES, readCappedBody, watchedReplyBody } from "./reply-body.js";
import { type PacerPriority, PacerRegistry, type RequestPacer } from "./request-pacer.js";
import { isRetryableStatus } from "./retry-policy.js";
import { sendStreamed } from "./streamed-request.js";
import { DEFAULT_TOKEN_BUCKET, type TokenBucketConfig } from "./token-bucket.js";
import { UploadRelay } from "./upload-body.js";

export interface CreateosClientOptions {
  /** API URL; reduced to its origin (default `https://api.sb.createos.sh`). */
  readonly apiUrl?: string;
  /** API key; else `CREATEOS_API_KEY`, for the default origin only. */
  readonly apiKey?: string;
  /** Environment to read `CREATEOS_API_KEY` from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  readonly fetch?: typeof fetch;
  /** Pacers shared by the clients of one plugin instance (default: one registry per client). */
  readonly pacers?: PacerRegistry;
  readonly rateLimit?: TokenBucketConfig;
  readonly backoff?: BackoffPolicy;
  /** Attempts of an idempotent call, the first included (default 5). */
  readonly maxAttempts?: number;
  /**
   * Deadline of one attempt, until the body is read (streams: until the headers; streamed
   * uploads and downloads: restarted by every chunk that moves) (default 30 s).
   */
  readonly requestTimeoutMs?: number;
  /** Largest reply body read into memory (JSON, `bytes()`); default 8 MiB. Downloads are streamed instead. */
  readonly maxReplyBytes?: number;
  readonly random?: () => number;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface CreateosRequest {
  readonly method: HttpMethod;
  /** Path below `/v1`, built from validated ids only. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number>>;
  readonly json?: unknown;
  readonly bytes?: Uint8Array;
  /** A small text body sent as it is (`application/octet-stream`, UTF-8). */
  readonly text?: string;
  /**
   * A streamed body, made afresh for every attempt (so a retried upload starts over); sent
   * through `node:http(s)`, not `fetch`, which would read it ahead without bound.
   */
  readonly upload?: () => AsyncIterable<Uint8Array>;
  readonly operation: CreateosOperation;
  /** Only idempotent calls are retried; creates never are. */
  readonly idempotent: boolean;
  /** Attempts of this call, the first included (default: the client's `maxAttempts`). */
  readonly maxAttempts?: number;
  readonly priority?: PacerPriority;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** Non-2xx statuses the caller handles (for example 404 on delete); their body is discarded too. */
  readonly allowStatuses?: readonly number[];
}

export interface JsonReply {
  readonly status: number;
  /** `null` for an allowed non-2xx status. */
  readonly data: JsonObject | null;
}

export interface BytesReply {
  readonly status: number;
  readonly bytes: Buffer | null;
}

export interface DownloadReply {
  readonly status: number;
  /** The body, read as fast as it is consumed; `null` for an allowed non-2xx status. */
  readonly body: Readable | null;
}

type BodyMode = "json" | "bytes" | "download" | "stream";

type AttemptResult =
  | { readonly kind: "json"; readonly status: number; readonly data: JsonObject | null }
  | { readonly kind: "bytes"; readonly status: number; readonly bytes: Buffer | null }
  | { readonly kind: "download"; readonly status: number; readonly body: Readable | null }
  | { readonly kind: "stream"; readonly status: number; readonly response: Response | null };

const TIMED_OUT = Symbol("timed out");

/** What each body mode asks for; errors come as JSON in every case. */
const ACCEPT: Record<BodyMode, string> = {
  json: "application/json",
  bytes: "application/octet-stream, application/json;q=0.5",
  download: "application/octet-stream, application/json;q=0.5",
  stream: "application/x-ndjson, application/json;q=0.5",
};

/**
 * The CreateOS HTTP client: one origin, one key, `X-Api-Key` on every call, redirects
 * refused, provider bodies of failed calls never read, retries for idempotent calls only,
 * and every request start paced per origin and key.
 */
export class CreateosClient {
  readonly origin: string;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;
  readonly #pacer: RequestPacer;
  readonly #backoff: BackoffPolicy;
  readonly #maxAttempts: number;
  readonly #timeoutMs: number;
  readonly #maxReplyBytes: number;
  readonly #random: () => number;

  constructor(options: CreateosClientOptions = {}) {
    this.origin = resolveApiOrigin(options.apiUrl);
    this.#apiKey = resolveApiKey(this.origin, options.apiKey, options.env ?? process.env);
    this.#fetch = options.fetch ?? globalThis.fetch;
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
   * headers only; liveness of the body is the caller's watchdog.
   */
  async stream(request: CreateosRequest): Promise<{ status: number; response: Response | null }> {
    const result = await this.#attempt(request, "stream");
    return result.kind === "stream" ? result : { status: result.status, response: null };
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

  async #attempt(request: CreateosRequest, mode: BodyMode): Promise<AttemptResult> {
    await this.#pacer.acquire(request.priority ?? "normal", request.signal);
    const controller = new AbortController();
    const onCallerAbort = (): void => controller.abort(request.signal?.reason);
    request.signal?.addEventListener("abort", onCallerAbort, { once: true });
    // An abort that landed while the pacer was granting the start would not fire the listener.
    if (request.signal?.aborted) controller.abort(request.signal.reason);
    const timer = setTimeout(() => controller.abort(TIMED_OUT), request.timeoutMs ?? this.#timeoutMs);
    let handedOver = false;
    const settle = (): void => {
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onCallerAbort);
    };
    const finish = (): void => {
      if (handedOver) return;
      clearTimeout(timer);
      if (mode !== "stream") request.signal?.removeEventListener("abort", onCallerAbort);
    };
    const upload = new UploadRelay();
    try {
      const headers: Record<string, string> = { "X-Api-Key": this.#apiKey, Accept: ACCEPT[mode] };
      let body: string | Uint8Array | undefined;
      if (request.json !== undefined) {
        headers["Content-Type"] = "application/json";
        body = JSON.stringify(request.json);
      } else if (request.bytes !== undefined || request.text !== undefined || request.upload !== undefined) {
        headers["Content-Type"] = "application/octet-stream";
        body = request.bytes ?? request.text;
      }
      let response: Response;
      try {
        response =
          request.upload === undefined
            ? await this.#fetch(this.#url(request), {
                method: request.method,
                headers,
                ...(body === undefined ? {} : { body }),
                // Never followed, so the key never goes to a Location; the rejection it causes is
                // told apart from a connection failure below, so it is not retried.
                redirect: "error",
                signal: controller.signal,
              })
            : await sendStreamed(this.#url(request), {
                method: request.method,
                headers,
                body: upload.relay(request.upload(), () => timer.refresh()),
                signal: controller.signal,
              });
      } catch (error) {
        // A source that failed (an unreadable file) is the cause, not the connection.
        if (upload.failure !== undefined) throw upload.failure.error;
        if (isRefusedRedirect(error)) throw redirectError(request);
        // node:http (streamed uploads) fails with plain errors (ECONNRESET): all of them are network failures.
        throw this.#transportError(
          request,
          controller,
          request.upload !== undefined || isNetworkFailure(error),
        );
      }
      // The streamed transport never follows one either; it hands the 3xx back.
      if (isRedirectStatus(response.status)) {
        await response.body?.cancel().catch(() => undefined);
        throw redirectError(request);
      }
      const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), Date.now());
      this.#pacer.observe(response.status, retryAfterMs);
      if (!response.ok) {
        // The body of a failed call may echo the request, key included: never read it.
        await response.body?.cancel().catch(() => undefined);
        if (request.allowStatuses?.includes(response.status)) return emptyResult(mode, response.status);
        throw new CreateosApiError(
          "ERR_CREATEOS_HTTP_STATUS",
          `CreateOS request failed (HTTP ${response.status}) during ${request.operation}.`,
          {
            status: response.status,
            operation: request.operation,
            retryable: isRetryableStatus(response.status),
            ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
          },
        );
      }
      if (mode === "stream") return { kind: "stream", status: response.status, response };
      if (mode === "download") {
        handedOver = true;
        timer.refresh();
        const body = watchedReplyBody(response.body, {
          onProgress: () => timer.refresh(),
          toError: () => this.#transportError(request, controller),
          onSettled: () => {
            settle();
            controller.abort();
          },
        });
        return { kind: "download", status: response.status, body };
      }
      try {
        const bytes = await readCappedBody(response, this.#maxReplyBytes, request.operation);
        if (mode === "bytes") return { kind: "bytes", status: response.status, bytes };
        // 204 has no body by definition; every other success must carry the envelope.
        if (response.status === 204) return { kind: "json", status: 204, data: {} };
        return {
          kind: "json",
          status: response.status,
          data: parseEnvelope(new TextDecoder().decode(bytes)),
        };
      } catch (error) {
        if (PaperclipError.is(error)) throw error;
        throw this.#transportError(request, controller);
      }
    } catch (error) {
      request.signal?.removeEventListener("abort", onCallerAbort);
      throw error;
    } finally {
      finish();
    }
  }

  /** A failed fetch or body read: the caller's abort, our deadline, or a connection failure without its cause (it can hold the URL). */
  #transportError(request: CreateosRequest, controller: AbortController, retryable = true): unknown {
    if (request.signal?.aborted) return request.signal.reason;
    if (controller.signal.aborted && controller.signal.reason === TIMED_OUT) {
      return new CreateosError(
        "ERR_CREATEOS_REQUEST_TIMEOUT",
        `CreateOS request timed out during ${request.operation}.`,
        {
          retryable: true,
          details: { operation: request.operation },
        },
      );
    }
    return new CreateosError("ERR_CREATEOS_CONNECTION", "CreateOS connection failed.", { retryable });
  }
}

function redirectError(request: CreateosRequest): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_REDIRECT",
    `CreateOS request was redirected during ${request.operation}; redirects are refused.`,
    { details: { operation: request.operation } },
  );
}

function emptyResult(mode: BodyMode, status: number): AttemptResult {
  if (mode === "json") return { kind: "json", status, data: null };
  if (mode === "bytes") return { kind: "bytes", status, bytes: null };
  if (mode === "download") return { kind: "download", status, body: null };
  return { kind: "stream", status, response: null };
}
