export { CreateosApiError, type CreateosApiErrorOptions } from "./families/createos-api-error.js";
export { CreateosError } from "./families/createos-error.js";
export { RunnerError } from "./families/runner-error.js";
export { SandboxError } from "./families/sandbox-error.js";
export type { ErrorDetails, JsonValue } from "./json.js";
export { PaperclipError, type PaperclipErrorOptions } from "./paperclip-error.js";
export { type RedactAndTruncateOptions, redactAndTruncate } from "./redact/redact-and-truncate.js";
export { REDACTED, type RedactOptions, redactSecrets } from "./redact/redact-secrets.js";
export { TRUNCATION_SUFFIX, type TruncatedText, truncateUtf8 } from "./redact/truncate-utf8.js";
export type {
  CoreErrorCode,
  CreateosErrorCode,
  ErrorCode,
  RunnerErrorCode,
  SandboxErrorCode,
} from "./registry/codes.js";
export { deserializeError } from "./serialize/deserialize-error.js";
export { type SerializedError, type SerializeOptions, serializeError } from "./serialize/serialize-error.js";
