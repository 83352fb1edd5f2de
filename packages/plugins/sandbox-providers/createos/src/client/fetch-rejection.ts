/**
 * What a rejected `fetch` means. Redirects are refused (`redirect: "error"`), so fetch rejects
 * with a `TypeError` whose cause is undici's "unexpected redirect"; a network failure is any
 * other `TypeError` (or an abort). Anything else was not thrown by the network: a `fetch`
 * handed in that refuses the call, which answers the same way every time.
 */
export function isRefusedRedirect(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false;
  const cause: unknown = error.cause;
  return cause instanceof Error && cause.message === "unexpected redirect";
}

export function isNetworkFailure(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/** A 3xx reply, as handed back by a transport that does not follow redirects. */
export function isRedirectStatus(status: number): boolean {
  return status >= 300 && status < 400;
}
