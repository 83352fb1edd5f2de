import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limiter.js";

describe("RateLimiter", () => {
  it("allows a burst, then refuses with the seconds until the next token", () => {
    let now = 0;
    const limiter = new RateLimiter(60, 3, () => now);
    expect([1, 2, 3].map(() => limiter.take("127.0.0.1").allowed)).toEqual([true, true, true]);
    expect(limiter.take("127.0.0.1")).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now += 1000;
    expect(limiter.take("127.0.0.1").allowed).toBe(true);
    expect(limiter.take("127.0.0.1").allowed).toBe(false);
  });

  it("keeps one bucket per caller", () => {
    const limiter = new RateLimiter(60, 1, () => 0);
    expect(limiter.take("a").allowed).toBe(true);
    expect(limiter.take("a").allowed).toBe(false);
    expect(limiter.take("b").allowed).toBe(true);
  });

  it("refills at perMinute/60 per second and never above the burst", () => {
    let now = 0;
    const limiter = new RateLimiter(300, 5, () => now);
    for (let index = 0; index < 5; index += 1) limiter.take("ip");
    expect(limiter.take("ip").allowed).toBe(false);
    now += 60_000;
    const allowed = Array.from({ length: 7 }, () => limiter.take("ip").allowed).filter(Boolean);
    expect(allowed).toHaveLength(5);
  });

  it("rounds Retry-After up to whole seconds", () => {
    const limiter = new RateLimiter(6, 1, () => 0);
    limiter.take("ip");
    expect(limiter.take("ip")).toEqual({ allowed: false, retryAfterSeconds: 10 });
  });
});
