import { PaperclipError, RunnerError, type RunnerErrorCode } from "@paperclipai/errors";

/** The `code` of a Node system error (`ENOENT`, `EEXIST`...), if it is one. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Wraps an OS error under `code`, keeping its message verbatim (upstream reports
 * the io::Error text) and its errno and syscall in `details`. A Paperclip error
 * passes through unchanged.
 */
export function wrapOsError(code: RunnerErrorCode, error: unknown): PaperclipError {
  if (PaperclipError.is(error)) return error;
  const syscall = (error as { syscall?: unknown } | null)?.syscall;
  return new RunnerError(code, error instanceof Error ? error.message : String(error), {
    cause: error,
    details: {
      errno: errnoCode(error) ?? "UNKNOWN",
      ...(typeof syscall === "string" ? { syscall } : {}),
    },
  });
}
