import { CreateosApiError, PaperclipError } from "@paperclipai/errors";

/**
 * Pure: whether a call to CreateOS that failed with `error` may still have been carried out.
 * Not one CreateOS refused (a 4xx), nor one never sent (it failed with `notSent`, the reason of
 * the signal that stops it before its start), nor one whose connection was never made
 * (`ERR_CREATEOS_CONNECTION` with `reached: false`). Any other (no answer, a 5xx a gateway may have
 * answered for a call carried out behind it, a 2xx whose body cannot be read) may have.
 */
export function mayHaveActed(error: unknown, notSent?: unknown): boolean {
  if (notSent !== undefined && error === notSent) return false;
  if (PaperclipError.is(error, "ERR_CREATEOS_CONNECTION") && error.details.reached === false) return false;
  return !(error instanceof CreateosApiError && error.status >= 400 && error.status < 500);
}
