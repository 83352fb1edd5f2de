import { createHash } from "node:crypto";
import { semanticCanonicalJson } from "./semantic-digest.js";

/** What the provider was answered for a call: replayed as it was when the provider asks again. */
export interface ToolCallAnswer {
  readonly success: boolean;
  readonly contentItems: readonly { readonly type: string; readonly text: string }[];
}

/** How a call id the provider sends relates to the calls completed under it: new, replayed, or denied (upstream's message). */
export type CompletedCallMatch =
  | { readonly kind: "new" }
  | { readonly kind: "replayed"; readonly answer: ToolCallAnswer }
  | { readonly kind: "denied"; readonly message: string };

/** Upstream's bound on the calls one turn completes; the oldest are forgotten first. */
const MAX_COMPLETED_CALLS = 4096;

const inputKey = (input: unknown): string =>
  createHash("sha256").update(semanticCanonicalJson(input)).digest("hex");

/**
 * The calls of the active provider turn the control plane has answered, by call id. Codex sends
 * a call again under a completed call's id when the model repeats the id (two calls of one id in
 * one response, a call id of an earlier turn): upstream's runner answers one of this turn with
 * the same input as it answered the first, without a second `semantic_tool.input` (the control
 * plane keeps one result per call id, so a second input would wait for good), and denies one with
 * another input, and one of an earlier turn (`settledToolCallIds`, saved with the provider state).
 * The answers are kept in memory: a restarted runner's Codex re-issues only pending calls.
 */
export class CompletedToolCalls {
  private turnId: string | null = null;
  private readonly calls = new Map<string, { readonly inputKey: string; readonly answer: ToolCallAnswer }>();

  record(providerTurnId: string, callId: string, input: unknown, answer: ToolCallAnswer): void {
    if (providerTurnId !== this.turnId) {
      this.turnId = providerTurnId;
      this.calls.clear();
    }
    this.calls.delete(callId);
    this.calls.set(callId, { inputKey: inputKey(input), answer });
    if (this.calls.size > MAX_COMPLETED_CALLS) this.calls.delete(this.calls.keys().next().value as string);
  }

  match(
    state: { readonly activeProviderTurnId: string | null; readonly settledToolCallIds: readonly string[] },
    callId: string,
    input: unknown,
  ): CompletedCallMatch {
    const completed = state.activeProviderTurnId === this.turnId ? this.calls.get(callId) : undefined;
    if (completed !== undefined) {
      return completed.inputKey === inputKey(input)
        ? { kind: "replayed", answer: completed.answer }
        : { kind: "denied", message: "provider replayed a completed tool call with different input" };
    }
    return state.settledToolCallIds.includes(callId)
      ? { kind: "denied", message: "provider reused a completed tool call id" }
      : { kind: "new" };
  }
}
