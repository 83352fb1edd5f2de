/** Exponential backoff with full jitter; `Retry-After` wins when the server sends it. */
export interface BackoffPolicy {
  /** Delay ceiling of the first retry. */
  readonly baseMs: number;
  /** No computed delay exceeds this. */
  readonly capMs: number;
  /** A `Retry-After` above this is clamped, so a hostile header cannot park a call for hours. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 250, capMs: 8_000, maxRetryAfterMs: 60_000 };

/** Full jitter: uniform in [0, min(cap, base * 2^(attempt-1))]. `attempt` starts at 1. */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}

/** `Retry-After` as delta-seconds or an HTTP date, in ms from `nowMs`; `undefined` when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (header == null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (text === "" || /^[-+]?\d/.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** The wait before retry number `attempt`. */
export function retryDelay(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number,
  retryAfterMs?: number,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  return backoffDelay(attempt, policy, random);
}
