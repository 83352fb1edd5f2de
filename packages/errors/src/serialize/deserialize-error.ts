import { CreateosApiError } from "../families/createos-api-error.js";
import { CreateosError } from "../families/createos-error.js";
import { RunnerError } from "../families/runner-error.js";
import { SandboxError } from "../families/sandbox-error.js";
import type { ErrorDetails } from "../json.js";
import { PaperclipError, type PaperclipErrorOptions } from "../paperclip-error.js";
import type { CreateosErrorCode, ErrorCode, RunnerErrorCode, SandboxErrorCode } from "../registry/codes.js";
import { detailsToJson } from "./redacted-json.js";
import { SerializeBudget } from "./serialize-budget.js";
import type { SerializedError } from "./serialize-error.js";

/** How many levels of `cause` / `errors` are rebuilt. */
const MAX_REBUILD_DEPTH = 32;
/** A Paperclip code: `ERR_` and upper-case words; anything else is kept on a plain `Error`. */
const CODE_SHAPE = /^ERR_[A-Z0-9]+(?:_[A-Z0-9]+)*$/;
const MAX_CODE_LENGTH = 128;
/** Errors rebuilt from one input, causes and members included: each captures a stack, which costs. */
export const MAX_REBUILT_ERRORS = 1000;

interface Rebuild {
  readonly budget: SerializeBudget;
  errors: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isHttpStatus(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 100 && value <= 599;
}

function rebuildCoded(
  code: string,
  message: string,
  data: Record<string, unknown>,
  cause: unknown,
  { budget }: Rebuild,
): PaperclipError {
  const retryAfterMs = data.retryAfterMs;
  const options: PaperclipErrorOptions = {
    ...(cause !== undefined ? { cause } : {}),
    // A copy: redacted, bounded, and with any `__proto__` key as a plain own key.
    ...(isRecord(data.details) ? { details: detailsToJson(data.details, budget) as ErrorDetails } : {}),
    ...(typeof data.retryable === "boolean" ? { retryable: data.retryable } : {}),
    ...(typeof retryAfterMs === "number" && Number.isFinite(retryAfterMs) && retryAfterMs >= 0
      ? { retryAfterMs }
      : {}),
  };
  // The family follows from the code's area, so codes newer than this registry still get their class.
  if (code.startsWith("ERR_SANDBOX_")) return new SandboxError(code as SandboxErrorCode, message, options);
  if (code.startsWith("ERR_RUNNER_")) return new RunnerError(code as RunnerErrorCode, message, options);
  if (code.startsWith("ERR_CREATEOS_")) {
    if (isHttpStatus(data.status)) {
      return new CreateosApiError(code as CreateosErrorCode, message, {
        ...options,
        status: data.status,
        operation: typeof data.operation === "string" ? budget.text(data.operation) : "unknown",
      });
    }
    return new CreateosError(code as CreateosErrorCode, message, options);
  }
  return new PaperclipError(code as ErrorCode, message, options);
}

function rebuildErrors(list: readonly unknown[], depth: number, state: Rebuild): Error[] {
  const errors: Error[] = [];
  for (let index = 0; index < list.length; index += 1) {
    if (state.budget.exhausted || state.errors >= MAX_REBUILT_ERRORS) {
      errors.push(new Error(`${list.length - index} more errors`));
      break;
    }
    errors.push(rebuild(list[index], depth, state));
  }
  return errors;
}

/** Never throws: data whose getters or Proxy traps throw gives an `Error` that says so. */
function rebuild(data: unknown, depth: number, state: Rebuild): Error {
  try {
    return rebuildData(data, depth, state);
  } catch {
    return new Error("[unreadable error data]");
  }
}

function rebuildData(data: unknown, depth: number, state: Rebuild): Error {
  const { budget } = state;
  if (!budget.takeValue() || state.errors >= MAX_REBUILT_ERRORS) return new Error("[Truncated]");
  state.errors += 1;
  if (typeof data === "string") return new Error(budget.text(data));
  if (!isRecord(data)) return new Error(budget.text(String(data)));
  // Every string is redacted again: the input may not come from serializeError.
  const message = typeof data.message === "string" ? budget.text(data.message) : "";
  const cause =
    data.cause !== undefined && depth < MAX_REBUILD_DEPTH ? rebuild(data.cause, depth + 1, state) : undefined;
  const name = typeof data.name === "string" ? budget.text(data.name) : "Error";
  const code = data.code;
  if (typeof code === "string" && code.length <= MAX_CODE_LENGTH && CODE_SHAPE.test(code)) {
    return rebuildCoded(code, message, data, cause, state);
  }
  const error =
    Array.isArray(data.errors) && depth < MAX_REBUILD_DEPTH
      ? new AggregateError(
          rebuildErrors(data.errors, depth + 1, state),
          message,
          cause === undefined ? undefined : { cause },
        )
      : new Error(message, cause === undefined ? undefined : { cause });
  if (name !== error.name)
    Object.defineProperty(error, "name", { value: name, configurable: true, writable: true });
  if (typeof code === "string")
    Object.defineProperty(error, "code", { value: budget.text(code), enumerable: true });
  return error;
}

/**
 * Rebuilds an error from `serializeError` output (an object or its JSON text).
 * A Paperclip code gives its family's class; a code this registry does not know
 * still gives a `PaperclipError` with that code. Anything else gives an `Error`.
 * The input is untrusted: strings are redacted and bounded as `serializeError` bounds
 * them, `details` are copied, and shared or repeated parts cost what they would written out.
 */
export function deserializeError(json: SerializedError | string | unknown): Error {
  const state: Rebuild = { budget: new SerializeBudget(), errors: 0 };
  if (typeof json === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      return new Error(state.budget.text(json));
    }
    return rebuild(parsed, 0, state);
  }
  return rebuild(json, 0, state);
}
