import { type ProviderEvent, providerEvent } from "./provider-event.js";

/** Pure: the `usage.reported` event of a Codex token-usage notification for the active turn. */
export function usageEvent(
  params: Record<string, unknown>,
  context: { readonly provider: string; readonly threadId: string },
): ProviderEvent {
  const usage = (params.tokenUsage ?? {}) as Record<string, unknown>;
  const total = measurement(usage.total);
  const last = usage.last === undefined ? null : measurement(usage.last);
  return providerEvent("usage.reported", 0, {
    provider: context.provider,
    // Upstream's runner reports no model here (the server knows the one it asked for).
    model: null,
    providerSessionId: context.threadId,
    providerRequestId: null,
    cumulative: total,
    runDeltaAvailable: last !== null,
    runDelta: last ?? measurement({}),
  });
}

/**
 * Pure: the diagnostic upstream's runner commits for the token-usage snapshot Codex replays
 * while it resumes a thread (naming the thread's last, settled turn), instead of usage.
 */
export function resumeUsageDiagnostic(params: Record<string, unknown>): ProviderEvent {
  const usage = (params.tokenUsage ?? {}) as Record<string, unknown>;
  return providerEvent("harness.diagnostic", 0, {
    code: "codex_resume_usage_snapshot",
    classification: "resume_usage_snapshot",
    method: "thread/tokenUsage/updated",
    receivedThreadId: typeof params.threadId === "string" ? params.threadId : null,
    receivedTurnId: typeof params.turnId === "string" ? params.turnId : null,
    cumulative: measurement(usage.total),
  });
}

/**
 * Pure: one usage measurement as upstream's runner reads it: Codex's token counts, and the
 * cache writes, active time, requests and cost that OpenCode's proxy also reports (0 where a
 * value is missing, negative or not a number; an integer where upstream reads one).
 */
function measurement(value: unknown): Record<string, number> {
  const usage = (value ?? {}) as Record<string, unknown>;
  const count = (n: unknown): number => (typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : 0);
  const amount = (n: unknown): number => (typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : 0);
  return {
    inputTokens: count(usage.inputTokens),
    outputTokens: count(usage.outputTokens),
    // Codex's name for the cache reads first; the other only where Codex's is absent, as upstream reads them.
    cacheReadTokens: count(
      Object.hasOwn(usage, "cachedInputTokens") ? usage.cachedInputTokens : usage.cacheReadTokens,
    ),
    cacheWriteTokens: count(usage.cacheWriteTokens),
    activeSeconds: amount(usage.activeSeconds),
    requests: count(usage.requests),
    providerCostUsd: amount(usage.providerCostUsd),
  };
}
