import { ERROR_BRAND, hasBrand } from "../brand.js";
import type { ErrorDetails } from "../json.js";
import { detailsToJson } from "./redacted-json.js";
import { SerializeBudget, TRUNCATED } from "./serialize-budget.js";

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
  /** How many levels of `cause` / `errors` to follow. Defaults to 8; at most 64. */
  readonly maxDepth?: number;
}

const DEFAULT_MAX_DEPTH = 8;
/** Deeper chains are cut here whatever `maxDepth` says: each level is a frame of recursion. */
export const MAX_CAUSE_DEPTH = 64;

const UNSERIALIZABLE: SerializedError = { name: "NonError", message: "[unserializable value]" };

function safeGet(target: object, key: string): unknown {
  try {
    return (target as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function isErrorLike(value: unknown): boolean {
  try {
    return value instanceof Error || hasBrand(value, ERROR_BRAND);
  } catch {
    return false;
  }
}

function describeNonError(value: unknown): string {
  try {
    if (typeof value === "string") return value;
    if (typeof value !== "object" || value === null) return String(value);
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return Object.prototype.toString.call(value);
    }
  } catch {
    return "[unserializable value]";
  }
}

interface ErrorWalk {
  readonly budget: SerializeBudget;
  readonly maxDepth: number;
  /** The errors on the path from the root: a second visit is a cycle. */
  readonly ancestors: Set<object>;
}

function serializeErrors(errors: readonly unknown[], depth: number, walk: ErrorWalk): SerializedError[] {
  const result: SerializedError[] = [];
  for (let index = 0; index < errors.length; index += 1) {
    if (walk.budget.exhausted) {
      result.push({ name: "Truncated", message: `${errors.length - index} more errors` });
      break;
    }
    result.push(serializeValue(safeGetIndex(errors, index), depth, walk));
  }
  return result;
}

function safeGetIndex(list: readonly unknown[], index: number): unknown {
  try {
    return list[index];
  } catch {
    return undefined;
  }
}

function serializeFields(error: object, depth: number, walk: ErrorWalk): SerializedError {
  const { budget } = walk;
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
  const nested = depth + 1 < walk.maxDepth;
  let isList = false;
  try {
    isList = Array.isArray(errors);
  } catch {}
  // The name and the code are strings the thrower chose: redacted like every other string.
  return {
    name: typeof name === "string" ? budget.text(name) : "Error",
    message: budget.text(typeof message === "string" ? message : describeNonError(message)),
    ...(typeof code === "string" ? { code: budget.text(code) } : {}),
    ...(details !== undefined && typeof details === "object" && details !== null && !Array.isArray(details)
      ? { details: detailsToJson(details, budget) as ErrorDetails }
      : {}),
    ...(typeof retryable === "boolean" ? { retryable } : {}),
    ...(typeof retryAfterMs === "number" && Number.isFinite(retryAfterMs) && retryAfterMs >= 0
      ? { retryAfterMs }
      : {}),
    ...(typeof status === "number" && Number.isFinite(status) ? { status } : {}),
    ...(typeof operation === "string" ? { operation: budget.text(operation) } : {}),
    ...(cause !== undefined && nested ? { cause: serializeValue(cause, depth + 1, walk) } : {}),
    ...(isList && nested ? { errors: serializeErrors(errors as unknown[], depth + 1, walk) } : {}),
  };
}

function serializeValue(value: unknown, depth: number, walk: ErrorWalk): SerializedError {
  // The labels of an error's fields (`"name":`, `"message":`, …) cost about this much JSON.
  if (!walk.budget.takeValue(0, 32)) return { name: "Truncated", message: TRUNCATED };
  // A part that cannot be read (a Proxy whose traps throw) is replaced; its parents are kept.
  try {
    if (!isErrorLike(value)) return { name: "NonError", message: walk.budget.text(describeNonError(value)) };
    const error = value as object;
    if (walk.ancestors.has(error)) return { name: "CircularReference", message: "[Circular]" };
    walk.ancestors.add(error);
    try {
      return serializeFields(error, depth, walk);
    } finally {
      walk.ancestors.delete(error);
    }
  } catch {
    return UNSERIALIZABLE;
  }
}

function clampDepth(maxDepth: number | undefined): number {
  if (maxDepth === undefined || Number.isNaN(maxDepth)) return DEFAULT_MAX_DEPTH;
  return Math.min(MAX_CAUSE_DEPTH, Math.max(1, Math.floor(maxDepth)));
}

/**
 * Turns anything thrown into redacted, JSON-safe data. Never throws: getters that
 * throw, cycles, non-errors and deep `cause` chains are all handled. Bounded: at most
 * `maxDepth` (8, at most 64) levels of `cause`, 16 levels of `details`, 64 KiB per string
 * and about 1 MiB of JSON in all, whatever the input shares or repeats.
 */
export function serializeError(value: unknown, options: SerializeOptions = {}): SerializedError {
  try {
    return serializeValue(value, 0, {
      budget: new SerializeBudget(),
      maxDepth: clampDepth(options.maxDepth),
      ancestors: new Set(),
    });
  } catch {
    return UNSERIALIZABLE;
  }
}
