/**
 * `@paperclipai/plugin-createos`: the CreateOS sandbox provider for Paperclip.
 *
 * The default export is the plugin; `createPlugin()` makes a fresh instance (for tests).
 */
import { createPlugin } from "./plugin/create-plugin.js";

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
export { buildScript, shellQuote } from "./execute/shell-script.js";
export { type LeaseMetadata, MARKER_PATH, WORKSPACE_PATH } from "./lease/lease-metadata.js";
export { CONFIG_SCHEMA, DRIVER_KEY, manifest, PLUGIN_ID } from "./manifest.js";
export { type CreatePluginOptions, createPlugin } from "./plugin/create-plugin.js";
export { type CreateosConfig, parseConfig } from "./plugin/plugin-config.js";
export { VERSION } from "./version.js";

const plugin = createPlugin();
export default plugin;
