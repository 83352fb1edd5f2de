/**
 * Redirects are refused (`redirect: "error"`): fetch then rejects with a `TypeError` whose
 * cause is undici's "unexpected redirect" network error. Telling it apart from a connection
 * failure keeps it out of the retries (a redirect answers the same way every time).
 */
export function isRefusedRedirect(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false;
  const cause: unknown = error.cause;
  return cause instanceof Error && cause.message === "unexpected redirect";
}

/** A 3xx reply, as handed back by a transport that does not follow redirects. */
export function isRedirectStatus(status: number): boolean {
  return status >= 300 && status < 400;
}
