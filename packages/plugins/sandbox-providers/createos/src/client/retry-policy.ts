/** Statuses an idempotent call is retried on: the request did not take effect, or may be repeated. */
const RETRYABLE_STATUSES = new Set([408, 429, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/** The output stream is also retried on any 5xx: reconnecting with `after=cursor` is always safe. */
export function isRetryableStreamStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/** Statuses whose `Retry-After` is honoured. */
export function honoursRetryAfter(status: number): boolean {
  return status === 429 || status === 503;
}
