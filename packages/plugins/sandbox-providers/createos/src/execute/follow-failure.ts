import { CreateosApiError, CreateosError, PaperclipError } from "@paperclipai/errors";
import { honoursRetryAfter, isRetryableStreamStatus } from "../client/retry-policy.js";

/** The reason a connection's watchdog aborts it with: silence longer than the stall threshold. */
export const STALLED = Symbol("stalled");

/**
 * The reason a connection's watchdog aborts it with: bytes kept arriving, but no frame was
 * completed within the frame-assembly bound. Unlike silence, this is never a quiet process.
 */
export const TRICKLED = Symbol("trickled");

/** A drop the follower recovers from by reconnecting from its cursor. */
export type Failure =
  | { readonly kind: "connection"; readonly status: number | null; readonly retryAfterMs: number | undefined }
  | { readonly kind: "stalled" }
  | { readonly kind: "ended" };

/** The output was gone from the journal before it was read: no reconnect can bring it back. */
export function evicted(): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_OUTPUT_EVICTED",
    "CreateOS process output was evicted before it could be read.",
  );
}

/**
 * Which failures are a drop to recover from; everything else is rethrown. The caller's abort
 * wins over whatever it caused.
 */
export function classifyFailure(error: unknown, signal: AbortSignal): Failure {
  if (signal.aborted) throw signal.reason;
  if (error === STALLED) return { kind: "stalled" };
  // A connection that trickles bytes of a frame it never completes is broken: a drop that counts.
  if (error === TRICKLED) return { kind: "connection", status: null, retryAfterMs: undefined };
  if (error instanceof CreateosApiError) {
    if (error.status === 410) throw evicted();
    if (isRetryableStreamStatus(error.status)) {
      return { kind: "connection", status: error.status, retryAfterMs: error.retryAfterMs };
    }
    throw error;
  }
  if (PaperclipError.is(error, ["ERR_CREATEOS_CONNECTION", "ERR_CREATEOS_REQUEST_TIMEOUT"])) {
    return { kind: "connection", status: null, retryAfterMs: undefined };
  }
  if (PaperclipError.is(error)) throw error;
  // A body that breaks mid-read (socket reset, "terminated") is a drop.
  if (error instanceof TypeError || (error instanceof Error && error.name === "AbortError")) {
    return { kind: "connection", status: null, retryAfterMs: undefined };
  }
  throw error;
}

/** The server's `Retry-After`, when the failure's status is one whose hint is honoured. */
export function retryAfterOf(failure: Failure): number | undefined {
  return failure.kind === "connection" && failure.status !== null && honoursRetryAfter(failure.status)
    ? failure.retryAfterMs
    : undefined;
}

/** Where following stood when the reconnect budget ran out. */
export interface BudgetFacts {
  readonly attempts: number;
  readonly lastStatus: number | null;
  readonly cursor: number;
  readonly processId: string;
}

/** The error once an outage has spent the reconnect budget, named after its last failure. */
export function budgetError(facts: BudgetFacts, last: Failure | undefined): CreateosError {
  const details = { ...facts };
  if (last?.kind === "ended") {
    return new CreateosError(
      "ERR_CREATEOS_STREAM_ENDED",
      "CreateOS process stream ended without an exit status.",
      {
        details,
        retryable: true,
      },
    );
  }
  return new CreateosError("ERR_CREATEOS_OUTPUT_CONNECTION", "CreateOS process output connection failed.", {
    details,
    retryable: true,
  });
}
