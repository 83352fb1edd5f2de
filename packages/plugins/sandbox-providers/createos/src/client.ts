/**
 * `@paperclipai/plugin-createos/client`: the CreateOS HTTP client and the command runner the
 * plugin is built on, for code that talks to CreateOS without a Paperclip host (scripts,
 * benchmarks, other providers). The plugin itself is the package's root entry.
 */
export { CreateosApiError, CreateosError } from "@paperclipai/errors";
export { DEFAULT_API_URL, resolveApiKey, resolveApiOrigin } from "./client/api-url.js";
export { type BackoffPolicy, DEFAULT_BACKOFF } from "./client/backoff.js";
export {
  type BytesReply,
  CreateosClient,
  type CreateosClientOptions,
  type CreateosRequest,
  type JsonReply,
} from "./client/createos-client.js";
export type { CreateosOperation } from "./client/operation.js";
export { type PacerPriority, PacerRegistry, RequestPacer } from "./client/request-pacer.js";
export type { ChunkHandler, StreamBody } from "./client/stream-body.js";
export { DEFAULT_TOKEN_BUCKET, type TokenBucketConfig } from "./client/token-bucket.js";
export {
  DEFAULT_EXECUTE_TUNING,
  type ExecuteRequest,
  type ExecuteResult,
  type ExecuteTuning,
  execute,
  type LeaseGuard,
} from "./execute/execute.js";
export type { OutputStream } from "./execute/output-frame.js";
export { buildScript, type ProcessCommand, processCommand, shellQuote } from "./execute/shell-script.js";
