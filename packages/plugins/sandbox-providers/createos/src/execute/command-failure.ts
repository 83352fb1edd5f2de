import { CreateosError, PaperclipError } from "@paperclipai/errors";

export function cancelled(reason: unknown): CreateosError {
  return new CreateosError("ERR_CREATEOS_CANCELLED", "CreateOS command was cancelled.", {
    ...(reason === undefined ? {} : { cause: reason }),
  });
}

/** How a command that failed had ended, read before its cleanup (a deadline may still fire). */
export interface FailureState {
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly cancelReason: unknown;
}

/**
 * The outcome a failed command reports unless its cleanup fails: none for a timeout (the
 * partial output is returned), `cancelled` for a cancellation, else the error itself.
 */
export function primaryOutcome(error: unknown, state: FailureState): unknown {
  if (state.timedOut) return undefined;
  return state.cancelled ? cancelled(state.cancelReason) : error;
}

/**
 * A kill that failed: upstream's message (the host shows only the text, and must learn that a
 * process may still run), with the outcome that made the kill necessary kept as `cause` and in
 * `details.primary`. The lease is already blocked.
 */
export function unconfirmedTermination(
  primary: unknown,
  cleanupError: CreateosError,
  timedOut: boolean,
): CreateosError {
  const first = timedOut
    ? { code: "TIMED_OUT", message: "The command timed out." }
    : PaperclipError.is(primary)
      ? { code: primary.code, message: primary.message }
      : { code: "UNKNOWN", message: primary instanceof Error ? primary.message : String(primary) };
  return new CreateosError("ERR_CREATEOS_CLEANUP_FAILED", cleanupError.message, {
    cause: timedOut ? cleanupError : primary,
    details: { ...cleanupError.details, primary: first, timedOut, leaseBlocked: true },
  });
}
