import { CreateosApiError } from "../families/createos-api-error.js";
import { CreateosError } from "../families/createos-error.js";
import { RunnerError } from "../families/runner-error.js";
import { SandboxError } from "../families/sandbox-error.js";
import type { ErrorDetails } from "../json.js";
import { PaperclipError, type PaperclipErrorOptions } from "../paperclip-error.js";
import type { CreateosErrorCode, ErrorCode, RunnerErrorCode, SandboxErrorCode } from "../registry/codes.js";
import type { SerializedError } from "./serialize-error.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function rebuildCoded(
  code: string,
  message: string,
  data: Record<string, unknown>,
  cause: unknown,
): PaperclipError {
  const options: PaperclipErrorOptions = {
    ...(cause !== undefined ? { cause } : {}),
    ...(isRecord(data.details) ? { details: data.details as ErrorDetails } : {}),
    ...(typeof data.retryable === "boolean" ? { retryable: data.retryable } : {}),
    ...(typeof data.retryAfterMs === "number" ? { retryAfterMs: data.retryAfterMs } : {}),
  };
  // The family follows from the code's area, so codes newer than this registry still get their class.
  if (code.startsWith("ERR_SANDBOX_")) return new SandboxError(code as SandboxErrorCode, message, options);
  if (code.startsWith("ERR_RUNNER_")) return new RunnerError(code as RunnerErrorCode, message, options);
  if (code.startsWith("ERR_CREATEOS_")) {
    if (typeof data.status === "number") {
      return new CreateosApiError(code as CreateosErrorCode, message, {
        ...options,
        status: data.status,
        operation: typeof data.operation === "string" ? data.operation : "unknown",
      });
    }
    return new CreateosError(code as CreateosErrorCode, message, options);
  }
  return new PaperclipError(code as ErrorCode, message, options);
}

function rebuild(data: unknown, depth: number): Error {
  if (typeof data === "string") return new Error(data);
  if (!isRecord(data)) return new Error(String(data));
  const message = typeof data.message === "string" ? data.message : "";
  const cause = data.cause !== undefined && depth < 32 ? rebuild(data.cause, depth + 1) : undefined;
  const name = typeof data.name === "string" ? data.name : "Error";
  if (typeof data.code === "string" && data.code.startsWith("ERR_")) {
    return rebuildCoded(data.code, message, data, cause);
  }
  const error =
    Array.isArray(data.errors) && depth < 32
      ? new AggregateError(
          data.errors.map((inner) => rebuild(inner, depth + 1)),
          message,
          cause === undefined ? undefined : { cause },
        )
      : new Error(message, cause === undefined ? undefined : { cause });
  if (name !== error.name)
    Object.defineProperty(error, "name", { value: name, configurable: true, writable: true });
  if (typeof data.code === "string")
    Object.defineProperty(error, "code", { value: data.code, enumerable: true });
  return error;
}

/**
 * Rebuilds an error from `serializeError` output (an object or its JSON text).
 * A Paperclip code gives its family's class; a code this registry does not know
 * still gives a `PaperclipError` with that code. Anything else gives an `Error`.
 */
export function deserializeError(json: SerializedError | string | unknown): Error {
  if (typeof json === "string") {
    try {
      return rebuild(JSON.parse(json), 0);
    } catch {
      return new Error(json);
    }
  }
  return rebuild(json, 0);
}
