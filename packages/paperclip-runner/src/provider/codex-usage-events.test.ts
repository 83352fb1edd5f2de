import { describe, expect, it } from "vitest";
import { usageEvent } from "./codex-usage-events.js";

const context = { provider: "opencode", threadId: "thread-1" };

describe("usageEvent on the measurements OpenCode's proxy reports", () => {
  it("keeps the cache writes, active time, requests and cost, as upstream's runner reads them", () => {
    const total = {
      inputTokens: 100,
      outputTokens: 40,
      cachedInputTokens: 10,
      cacheWriteTokens: 5,
      activeSeconds: 2.5,
      requests: 3,
      providerCostUsd: 0.0125,
    };
    const payload = usageEvent({ tokenUsage: { total, last: { ...total, requests: 1 } } }, context).payload;
    expect(payload.cumulative).toEqual({
      inputTokens: 100,
      outputTokens: 40,
      cacheReadTokens: 10,
      cacheWriteTokens: 5,
      activeSeconds: 2.5,
      requests: 3,
      providerCostUsd: 0.0125,
    });
    expect(payload.runDelta).toMatchObject({ requests: 1, providerCostUsd: 0.0125 });
  });

  it("reads cacheReadTokens where Codex's name is absent, and 0 for what is negative, fractional or not a number", () => {
    const total = {
      inputTokens: -1,
      outputTokens: 1.5,
      cacheReadTokens: 7,
      cacheWriteTokens: "5",
      activeSeconds: -2,
      requests: Number.NaN,
      providerCostUsd: Number.POSITIVE_INFINITY,
    };
    expect(usageEvent({ tokenUsage: { total } }, context).payload.cumulative).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 7,
      cacheWriteTokens: 0,
      activeSeconds: 0,
      requests: 0,
      providerCostUsd: 0,
    });
    const both = { cachedInputTokens: "x", cacheReadTokens: 7 };
    expect(usageEvent({ tokenUsage: { total: both } }, context).payload.cumulative).toMatchObject({
      cacheReadTokens: 0,
    });
  });
});
