import { describe, expect, it } from "vitest";
import { honoursRetryAfter, isRetryableStatus, isRetryableStreamStatus } from "./retry-policy.js";

describe("retry policy", () => {
  it("retries idempotent calls on 408/429/502/503/504 only", () => {
    expect(
      [400, 401, 403, 404, 408, 409, 410, 429, 500, 501, 502, 503, 504].filter(isRetryableStatus),
    ).toEqual([408, 429, 502, 503, 504]);
  });
  it("retries the output stream on 429 and every 5xx", () => {
    expect([404, 408, 409, 410, 429, 500, 501, 503, 599].filter(isRetryableStreamStatus)).toEqual([
      429, 500, 501, 503, 599,
    ]);
  });
  it("honours Retry-After on 429 and 503", () => {
    expect([429, 500, 502, 503].filter(honoursRetryAfter)).toEqual([429, 503]);
  });
});
