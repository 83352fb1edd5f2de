import { ERROR_BRAND, hasBrand } from "../brand.js";
import type { ErrorDetails, JsonValue } from "../json.js";
import { redactSecrets } from "../redact/redact-secrets.js";

/** The JSON form of an error. Every string in it is redacted. */
export interface SerializedError {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly details?: ErrorDetails;
  readonly retryable?: boolean;
  readonly retryAfterMs?: number;
  /** HTTP status, on `CreateosApiError`. */
  readonly status?: number;
  /** Operation label, on `CreateosApiError`. */
  readonly operation?: string;
  readonly cause?: SerializedError;
  /** The inner errors of an `AggregateError`. */
  readonly errors?: readonly SerializedError[];
}

export interface SerializeOptions {
  /** How many levels of `cause` / `errors` to follow. Defaults to 8. */
  readonly maxDepth?: number;
}

const DEFAULT_MAX_DEPTH = 8;
const MAX_DETAIL_DEPTH = 16;

function describeNonError(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value !== "object" || value === null) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function safeGet(target: object, key: string): unknown {
  try {
    return (target as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** Copies a value into plain JSON: redacted strings, finite numbers, no cycles, bounded depth. */
function toRedactedJson(value: unknown, depth: number, seen: Set<object>): JsonValue {
  if (typeof value === "string") return redactSecrets(value);
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "boolean" || value === null) return value;
  if (typeof value !== "object") return value === undefined ? null : String(value);
  if (seen.has(value)) return "[Circular]";
  if (depth >= MAX_DETAIL_DEPTH) return "[Truncated]";
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => toRedactedJson(item, depth + 1, seen));
    const result: { [key: string]: JsonValue } = {};
    for (const key of Object.keys(value)) {
      const item = safeGet(value, key);
      if (item !== undefined) result[key] = toRedactedJson(item, depth + 1, seen);
    }
    return result;
  } finally {
    seen.delete(value);
  }
}

function serializeValue(value: unknown, depth: number, maxDepth: number, seen: Set<object>): SerializedError {
  if (!(value instanceof Error) && !hasBrand(value, ERROR_BRAND)) {
    return { name: "NonError", message: redactSecrets(describeNonError(value)) };
  }
  const error = value as Error;
  if (seen.has(error)) return { name: "CircularReference", message: "[Circular]" };
  seen.add(error);
  try {
    const name = safeGet(error, "name");
    const message = safeGet(error, "message");
    const code = safeGet(error, "code");
    const details = safeGet(error, "details");
    const retryable = safeGet(error, "retryable");
    const retryAfterMs = safeGet(error, "retryAfterMs");
    const status = safeGet(error, "status");
    const operation = safeGet(error, "operation");
    const cause = safeGet(error, "cause");
    const errors = safeGet(error, "errors");
    const nested = depth + 1 < maxDepth;
    return {
      name: typeof name === "string" ? name : "Error",
      message: redactSecrets(typeof message === "string" ? message : describeNonError(message)),
      ...(typeof code === "string" ? { code } : {}),
      ...(details !== undefined && typeof details === "object" && details !== null && !Array.isArray(details)
        ? { details: toRedactedJson(details, 0, new Set()) as ErrorDetails }
        : {}),
      ...(typeof retryable === "boolean" ? { retryable } : {}),
      ...(typeof retryAfterMs === "number" && Number.isFinite(retryAfterMs) ? { retryAfterMs } : {}),
      ...(typeof status === "number" ? { status } : {}),
      ...(typeof operation === "string" ? { operation: redactSecrets(operation) } : {}),
      ...(cause !== undefined && nested ? { cause: serializeValue(cause, depth + 1, maxDepth, seen) } : {}),
      ...(Array.isArray(errors) && nested
        ? { errors: errors.map((inner) => serializeValue(inner, depth + 1, maxDepth, seen)) }
        : {}),
    };
  } finally {
    seen.delete(error);
  }
}

/**
 * Turns anything thrown into redacted, JSON-safe data. Never throws: getters that
 * throw, cycles, non-errors and deep `cause` chains are all handled.
 */
export function serializeError(value: unknown, options: SerializeOptions = {}): SerializedError {
  const maxDepth = Math.max(1, options.maxDepth ?? DEFAULT_MAX_DEPTH);
  try {
    return serializeValue(value, 0, maxDepth, new Set());
  } catch {
    return { name: "NonError", message: "[unserializable value]" };
  }
}
