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

function measurement(value: unknown): Record<string, number> {
  const usage = (value ?? {}) as Record<string, unknown>;
  const count = (name: string): number => {
    const n = usage[name];
    return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : 0;
  };
  return {
    inputTokens: count("inputTokens"),
    outputTokens: count("outputTokens"),
    cacheReadTokens: count("cachedInputTokens"),
    cacheWriteTokens: 0,
    activeSeconds: 0,
    requests: 0,
    providerCostUsd: 0,
  };
}
