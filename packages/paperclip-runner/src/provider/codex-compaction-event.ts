import { type ProviderEvent, providerEvent, stableId } from "./provider-event.js";

/**
 * Pure: the `context.compacted` event of Codex's `thread/compacted` (P1,
 * `paperclip.context.compacted.v1`), as upstream's runner commits it: the compaction named after
 * the thread, reported as the provider's own, token counts unknown, the session kept.
 */
export function compactionEvent(params: Record<string, unknown>): ProviderEvent {
  return providerEvent("context.compacted", 1, {
    schema: "paperclip.context.compacted.v1",
    compactionId: stableId(params.threadId, "codex-compaction"),
    reason: "provider",
    preTokens: null,
    postTokens: null,
    sameSession: true,
  });
}
