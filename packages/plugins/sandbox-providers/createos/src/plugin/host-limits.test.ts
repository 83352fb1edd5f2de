import { describe, expect, it } from "vitest";
import { budgetWithin, HOST_LIMITS, hostBound, hostCallLimitMs, hostResumeLimitMs } from "./host-limits.js";

describe("host limits", () => {
  it("computes the host's acquire deadline as it does: max(timeoutMs, bridgeRequestTimeoutMs) + 30 s", () => {
    expect(hostCallLimitMs({ timeoutMs: 300_000 }, HOST_LIMITS)).toBe(330_000);
    expect(hostCallLimitMs({ timeoutMs: 5_000, bridgeRequestTimeoutMs: 9_000.7 }, HOST_LIMITS)).toBe(39_000);
    // Without either key (or with unusable values) the host's default RPC timeout applies.
    expect(hostCallLimitMs({}, HOST_LIMITS)).toBe(30_000);
    expect(hostCallLimitMs({ timeoutMs: -1, bridgeRequestTimeoutMs: "9000" }, HOST_LIMITS)).toBe(30_000);
    expect(hostCallLimitMs(undefined, HOST_LIMITS)).toBe(30_000);
    // The host waits at most what a Node timer holds (`resolveRpcCallTimeoutMs`).
    expect(hostCallLimitMs({ bridgeRequestTimeoutMs: 3_000_000_000 }, HOST_LIMITS)).toBe(2_147_483_647);
  });

  it("computes the host's limit for one resume call as it does: the acquire's, within 60 s", () => {
    // environment-runtime.js: min(resolvePluginSandboxRpcTimeoutMs(config) ?? 60 s, what is left of 60 s).
    expect(hostResumeLimitMs({ timeoutMs: 5_000 }, HOST_LIMITS)).toBe(35_000);
    expect(hostResumeLimitMs({ timeoutMs: 1_000, bridgeRequestTimeoutMs: 12_000 }, HOST_LIMITS)).toBe(42_000);
    expect(hostResumeLimitMs({ timeoutMs: 300_000 }, HOST_LIMITS)).toBe(60_000);
    expect(hostResumeLimitMs({}, HOST_LIMITS)).toBe(60_000);
    expect(hostResumeLimitMs(undefined, HOST_LIMITS)).toBe(60_000);
  });

  it("keeps the margin free, never going below 1 s", () => {
    expect(budgetWithin(60_000, HOST_LIMITS)).toBe(50_000);
    expect(budgetWithin(30_000, HOST_LIMITS)).toBe(20_000);
    expect(budgetWithin(5_000, HOST_LIMITS)).toBe(1_000);
  });

  it("aborts with a coded error when the budget ends, and with the parent's reason before that", async () => {
    const parent = new AbortController();
    const short = hostBound(parent.signal, "acquire", 5);
    await new Promise((resolve) => short.signal.addEventListener("abort", resolve, { once: true }));
    expect(short.expired()).toBe(true);
    expect(short.signal.reason).toMatchObject({
      code: "ERR_CREATEOS_HOST_DEADLINE",
      message: "CreateOS acquire did not finish within the host's limit (5 ms).",
      details: { operation: "acquire", budgetMs: 5 },
    });
    short.dispose();
    const long = hostBound(parent.signal, "resume", 60_000);
    parent.abort(new Error("shutdown"));
    expect(long.expired()).toBe(false);
    expect((long.signal.reason as Error).message).toBe("shutdown");
    long.dispose();
  });
});
