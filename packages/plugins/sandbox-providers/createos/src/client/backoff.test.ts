import { describe, expect, it } from "vitest";
import { backoffDelay, parseRetryAfter, retryDelay } from "./backoff.js";

const policy = { baseMs: 100, capMs: 1_000, maxRetryAfterMs: 5_000 };

describe("backoffDelay", () => {
  it("doubles the ceiling per attempt up to the cap", () => {
    const top = () => 0.999999;
    expect(backoffDelay(1, policy, top)).toBe(99);
    expect(backoffDelay(2, policy, top)).toBe(199);
    expect(backoffDelay(4, policy, top)).toBe(799);
    expect(backoffDelay(5, policy, top)).toBe(999);
    expect(backoffDelay(500, policy, top)).toBe(999);
  });

  it("is fully jittered down to zero", () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(200);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it("reads delta-seconds", () => {
    expect(parseRetryAfter("3", now)).toBe(3_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
  });
  it("reads an HTTP date", () => {
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:02 GMT", now)).toBe(2_000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
  });
  it("ignores absent or unreadable values", () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("", now)).toBeUndefined();
    expect(parseRetryAfter("-1", now)).toBeUndefined();
    expect(parseRetryAfter("1.5", now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });
});

describe("retryDelay", () => {
  it("honours Retry-After, clamped", () => {
    expect(retryDelay(1, policy, () => 0, 2_000)).toBe(2_000);
    expect(retryDelay(1, policy, () => 0, 60_000)).toBe(5_000);
  });
  it("falls back to jittered backoff", () => {
    expect(retryDelay(2, policy, () => 0.5, undefined)).toBe(100);
  });
});
