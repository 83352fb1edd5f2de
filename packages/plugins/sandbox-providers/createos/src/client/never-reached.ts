/**
 * Failures of a connection that was never made (no address for the host, no route, nobody
 * listening): no byte of the request reached the API, so it cannot have acted on it.
 */
const UNREACHED = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EAI_NODATA",
  "EAI_NONAME",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/** Pure: whether a transport failure (Node's own error, or `fetch`'s with it as `cause`) is one of those. */
export function neverReached(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 3 && typeof current === "object" && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && UNREACHED.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
