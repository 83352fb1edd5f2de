import { describe, expect, it } from "vitest";
import {
  after429,
  afterAnswer,
  initialBucket,
  refill,
  type TokenBucketState,
  takeToken,
} from "./token-bucket.js";

const config = { burst: 3, refillPerMinute: 60 }; // one token a second

function takeAll(
  state: TokenBucketState,
  now: number,
): { state: TokenBucketState; granted: number; waitMs: number } {
  let granted = 0;
  let current = state;
  for (;;) {
    const result = takeToken(current, config, now);
    current = result.state;
    if (!result.granted) return { state: current, granted, waitMs: result.waitMs };
    granted++;
  }
}

describe("token bucket", () => {
  it("grants a burst, then paces at the refill rate", () => {
    const first = takeAll(initialBucket(config, 0), 0);
    expect(first.granted).toBe(3);
    expect(first.waitMs).toBe(1_000);
    const later = takeAll(first.state, 1_000);
    expect(later.granted).toBe(1);
  });

  it("never refills above the burst", () => {
    expect(refill(initialBucket(config, 0), config, 3_600_000).tokens).toBe(3);
  });

  it("ignores time going backwards", () => {
    const state = refill({ ...initialBucket(config, 10_000), tokens: 0 }, config, 5_000);
    expect(state.tokens).toBe(0);
    expect(state.updatedAtMs).toBe(10_000);
  });

  it("stops and slows down after a 429, then recovers with answers", () => {
    let state = after429(initialBucket(config, 0), config, 0, 5_000);
    const blocked = takeToken(state, config, 1_000);
    expect(blocked.granted).toBe(false);
    if (!blocked.granted) expect(blocked.waitMs).toBe(4_000);
    expect(state.rateFactor).toBe(0.5);
    // at half rate a token takes 2 s
    const slow = takeToken(state, config, 5_000);
    expect(slow.granted).toBe(false);
    expect(takeToken(slow.state, config, 7_000).granted).toBe(true);
    for (let i = 0; i < 100; i++) state = afterAnswer(state);
    expect(state.rateFactor).toBe(1);
  });

  it("bounds the slow-down", () => {
    let state = initialBucket(config, 0);
    for (let i = 0; i < 20; i++) state = after429(state, config, 0);
    expect(state.rateFactor).toBe(1 / 8);
  });

  it("without Retry-After pauses for one token at the reduced rate", () => {
    const state = after429(initialBucket(config, 0), config, 0);
    expect(state.blockedUntilMs).toBe(2_000);
  });
});
