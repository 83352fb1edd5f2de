/**
 * Token-bucket arithmetic of the request pacer, as pure functions of time. The API allows
 * about 300 requests a minute per caller IP; the default stays under it with room for a
 * second worker on the same IP.
 */
export interface TokenBucketConfig {
  /** Requests that may start back to back after a quiet period. */
  readonly burst: number;
  /** Sustained requests per minute. */
  readonly refillPerMinute: number;
}

export interface TokenBucketState {
  readonly tokens: number;
  readonly updatedAtMs: number;
  /** 1 normally; halved by each 429 (down to 1/8) and regained slowly by answered requests. */
  readonly rateFactor: number;
  /** No request starts before this, after a 429. */
  readonly blockedUntilMs: number;
}

export const DEFAULT_TOKEN_BUCKET: TokenBucketConfig = { burst: 20, refillPerMinute: 240 };

const MIN_RATE_FACTOR = 1 / 8;
const RATE_RECOVERY_STEP = 1 / 16;

export function initialBucket(config: TokenBucketConfig, nowMs: number): TokenBucketState {
  return { tokens: config.burst, updatedAtMs: nowMs, rateFactor: 1, blockedUntilMs: 0 };
}

function ratePerMs(config: TokenBucketConfig, state: TokenBucketState): number {
  return (config.refillPerMinute * state.rateFactor) / 60_000;
}

export function refill(state: TokenBucketState, config: TokenBucketConfig, nowMs: number): TokenBucketState {
  const elapsed = Math.max(0, nowMs - state.updatedAtMs);
  const tokens = Math.min(config.burst, state.tokens + elapsed * ratePerMs(config, state));
  return { ...state, tokens, updatedAtMs: Math.max(nowMs, state.updatedAtMs) };
}

export type TakeResult =
  | { readonly granted: true; readonly state: TokenBucketState }
  | { readonly granted: false; readonly state: TokenBucketState; readonly waitMs: number };

/** Takes one token if there is one; otherwise says how long until there will be. */
export function takeToken(state: TokenBucketState, config: TokenBucketConfig, nowMs: number): TakeResult {
  const current = refill(state, config, nowMs);
  const blockedFor = current.blockedUntilMs - nowMs;
  if (blockedFor > 0) return { granted: false, state: current, waitMs: Math.ceil(blockedFor) };
  if (current.tokens >= 1) return { granted: true, state: { ...current, tokens: current.tokens - 1 } };
  const waitMs = Math.max(1, Math.ceil((1 - current.tokens) / ratePerMs(config, current)));
  return { granted: false, state: current, waitMs };
}

/** A 429: empty the bucket, halve the rate, and start nothing until `Retry-After` (or one token's worth) has passed. */
export function after429(
  state: TokenBucketState,
  config: TokenBucketConfig,
  nowMs: number,
  retryAfterMs?: number,
): TokenBucketState {
  const current = refill(state, config, nowMs);
  const rateFactor = Math.max(MIN_RATE_FACTOR, current.rateFactor / 2);
  const pause = retryAfterMs ?? 60_000 / (config.refillPerMinute * rateFactor);
  const blockedUntilMs = Math.max(current.blockedUntilMs, nowMs + pause);
  // No tokens accrue while blocked: refilling starts when the block ends.
  return {
    tokens: 0,
    rateFactor,
    blockedUntilMs,
    updatedAtMs: Math.max(current.updatedAtMs, blockedUntilMs),
  };
}

/** An answered request that was not a 429 wins back part of the rate. */
export function afterAnswer(state: TokenBucketState): TokenBucketState {
  if (state.rateFactor >= 1) return state;
  return { ...state, rateFactor: Math.min(1, state.rateFactor + RATE_RECOVERY_STEP) };
}
