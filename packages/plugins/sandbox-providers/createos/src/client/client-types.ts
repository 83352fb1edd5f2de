import type { Readable } from "node:stream";
import type { BackoffPolicy } from "./backoff.js";
import type { JsonObject } from "./envelope.js";
import type { CreateosOperation } from "./operation.js";
import type { PacerPriority, PacerRegistry } from "./request-pacer.js";
import type { TokenBucketConfig } from "./token-bucket.js";

export interface CreateosClientOptions {
  /** API URL; reduced to its origin (default `https://api.sb.createos.sh`). */
  readonly apiUrl?: string;
  /** API key; else `CREATEOS_API_KEY`, for the default origin only. */
  readonly apiKey?: string;
  /** Environment to read `CREATEOS_API_KEY` from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Used for every call when given. Without it, replies read whole (JSON, `bytes()`) and
   * streams (`stream()`) go through `node:http(s)` and its keep-alive agent, at a fraction
   * of fetch's CPU per call; downloads through the global `fetch`.
   */
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
  /**
   * Stops the call only while it waits to start (the pacer), never once it is sent: for a
   * create, whose answer must be read once CreateOS may have acted on it.
   */
  readonly startSignal?: AbortSignal;
  readonly timeoutMs?: number;
  /**
   * Told of every attempt that failed once it had left the pacer (one stopped while waiting to
   * start was never sent), before any retry: a caller whose call may act though its last
   * attempt failed (a resume) judges each.
   */
  readonly onAttemptFailed?: (error: unknown) => void;
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
