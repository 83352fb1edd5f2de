import { describe, expect, it } from "vitest";
import { isNetworkFailure, isRedirectStatus, isRefusedRedirect } from "./fetch-rejection.js";

describe("fetch rejections", () => {
  it("tells a refused redirect by undici's cause", () => {
    expect(
      isRefusedRedirect(new TypeError("fetch failed", { cause: new Error("unexpected redirect") })),
    ).toBe(true);
    expect(
      isRefusedRedirect(new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") })),
    ).toBe(false);
    expect(isRefusedRedirect(new Error("unexpected redirect"))).toBe(false);
  });

  it("counts TypeErrors and aborts as network failures, nothing else", () => {
    expect(isNetworkFailure(new TypeError("fetch failed"))).toBe(true);
    expect(isNetworkFailure(new DOMException("aborted", "AbortError"))).toBe(true);
    expect(isNetworkFailure(new DOMException("timed out", "TimeoutError"))).toBe(true);
    expect(isNetworkFailure(new Error("Unhandled fixture request GET /wait"))).toBe(false);
    expect(isNetworkFailure("boom")).toBe(false);
  });

  it("treats every 3xx as a redirect", () => {
    expect([299, 300, 302, 307, 308, 399, 400].map(isRedirectStatus)).toEqual([
      false,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
  });
});
