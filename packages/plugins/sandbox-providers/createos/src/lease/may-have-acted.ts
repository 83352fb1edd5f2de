import { CreateosApiError } from "@paperclipai/errors";

/**
 * Pure: whether a call to CreateOS that failed with `error` may still have been carried out.
 * Not one CreateOS refused (a 4xx), nor one never sent (it failed with `notSent`, the reason of
 * the signal that stops it before its start). Any other (no answer, a 5xx a gateway may have
 * answered for a call carried out behind it, a 2xx whose body cannot be read) may have.
 */
export function mayHaveActed(error: unknown, notSent?: unknown): boolean {
  if (notSent !== undefined && error === notSent) return false;
  return !(error instanceof CreateosApiError && error.status >= 400 && error.status < 500);
}
