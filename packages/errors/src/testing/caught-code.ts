import { PaperclipError } from "../paperclip-error.js";
import type { ErrorCode } from "../registry/codes.js";

/**
 * What a test asserts about a failure it provoked: the coded error a call threw or a promise
 * rejected with. Anything else fails the test with a message naming what came instead: a
 * plain `Error` (the bug a coded error should have replaced), a different code, or no failure.
 */

function coded<C extends ErrorCode>(error: unknown, code: C | undefined): PaperclipError<C> {
  if (!PaperclipError.is(error)) {
    throw new Error(`expected a PaperclipError${code ? ` (${code})` : ""}, got ${String(error)}`, {
      cause: error,
    });
  }
  if (code !== undefined && error.code !== code) {
    throw new Error(`expected ${code}, got ${error.code}: ${error.message}`, { cause: error });
  }
  return error as PaperclipError<C>;
}

/** The coded error `promise` rejects with (of `code`, when given); fails when it resolves or rejects otherwise. */
export async function caught<C extends ErrorCode = ErrorCode>(
  promise: Promise<unknown>,
  code?: C,
): Promise<PaperclipError<C>> {
  try {
    await promise;
  } catch (error) {
    return coded(error, code);
  }
  throw new Error(`expected a rejection${code ? ` with ${code}` : ""}, but the promise resolved`);
}

/** The coded error `run` throws (of `code`, when given); fails when it returns or throws otherwise. */
export function caughtSync<C extends ErrorCode = ErrorCode>(run: () => unknown, code?: C): PaperclipError<C> {
  try {
    run();
  } catch (error) {
    return coded(error, code);
  }
  throw new Error(`expected a throw${code ? ` of ${code}` : ""}, but the call returned`);
}
