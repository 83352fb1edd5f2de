import { CreateosApiError, CreateosError } from "@paperclipai/errors";
import type { CreateosOperation } from "./operation.js";
import { isRetryableStatus } from "./retry-policy.js";

export function redirectError(operation: CreateosOperation): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_REDIRECT",
    `CreateOS request was redirected during ${operation}; redirects are refused.`,
    { details: { operation } },
  );
}

/** A non-2xx reply the caller does not handle; its body was never read. */
export function statusError(
  operation: CreateosOperation,
  status: number,
  retryAfterMs: number | undefined,
): CreateosApiError {
  return new CreateosApiError(
    "ERR_CREATEOS_HTTP_STATUS",
    `CreateOS request failed (HTTP ${status}) during ${operation}.`,
    {
      status,
      operation,
      retryable: isRetryableStatus(status),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    },
  );
}

export interface TransportFailure {
  readonly operation: CreateosOperation;
  /** The caller's signal, when it has aborted: its reason is the outcome. */
  readonly callerSignal: AbortSignal | undefined;
  readonly timedOut: boolean;
  /** False for a failure that answers the same way every time (a `fetch` refusing the route). */
  readonly retryable: boolean;
  /** False for a connection never made (see `neverReached`): the API cannot have acted on it. */
  readonly reached: boolean;
}

/** One call got no complete answer within its deadline; idempotent calls retry it. */
export function requestTimeoutError(operation: CreateosOperation): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_REQUEST_TIMEOUT",
    `CreateOS request timed out during ${operation}.`,
    {
      retryable: true,
      details: { operation },
    },
  );
}

/**
 * A failed send or body read: the caller's abort, the attempt's deadline, or a connection
 * failure, without its cause (it can hold the URL).
 */
export function transportFailure(failure: TransportFailure): unknown {
  if (failure.callerSignal?.aborted) return failure.callerSignal.reason;
  if (failure.timedOut) return requestTimeoutError(failure.operation);
  return new CreateosError("ERR_CREATEOS_CONNECTION", "CreateOS connection failed.", {
    retryable: failure.retryable,
    ...(failure.reached ? {} : { details: { reached: false } }),
  });
}
