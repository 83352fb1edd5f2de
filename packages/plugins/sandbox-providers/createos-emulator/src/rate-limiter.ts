/** The decision for one request. */
export type RateDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * A token bucket per caller key (the remote IP): `burst` tokens, refilled continuously at
 * `perMinute / 60` per second. The clock is injected so the policy is testable without waiting.
 */
export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #perMs: number;

  constructor(
    perMinute: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#perMs = perMinute / 60_000;
  }

  take(key: string): RateDecision {
    const now = this.now();
    const bucket = this.#buckets.get(key) ?? { tokens: this.burst, updatedAt: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.updatedAt) * this.#perMs);
    bucket.updatedAt = now;
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    const waitMs = (1 - bucket.tokens) / this.#perMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }
}
