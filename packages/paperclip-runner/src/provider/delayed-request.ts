import type { CodexProviderState } from "./codex-provider-state.js";

/** The requests a Codex turn makes of the runner (a semantic tool call, a question for the user). */
const TURN_REQUESTS = new Set(["item/tool/call", "item/tool/requestUserInput"]);

/** Upstream's words to Codex for such a request once the turn it names has ended. */
export const TURN_TERMINATED = "the Codex turn has already terminated";

export type DelayedRequestAnswer =
  | { readonly kind: "result"; readonly result: unknown }
  | { readonly kind: "error"; readonly code: number; readonly message: string };

/**
 * Pure: whether Codex's request came late: it names this thread and a turn that is not running
 * (one settled, one never seen, or any while no turn runs). Upstream's runner answers such a
 * request as after its turn's end and notices it, whichever turn it names.
 */
export function isDelayedRequest(
  method: string,
  params: Record<string, unknown>,
  state: Pick<CodexProviderState, "threadId" | "activeProviderTurnId">,
): boolean {
  return (
    TURN_REQUESTS.has(method) &&
    params.threadId === state.threadId &&
    typeof params.turnId === "string" &&
    params.turnId !== state.activeProviderTurnId
  );
}

/**
 * Pure: upstream's answer to a late request: a failed tool call (the model reads it as the tool's
 * output), else a JSON-RPC error.
 */
export function delayedRequestAnswer(method: string): DelayedRequestAnswer {
  if (method === "item/tool/call")
    return {
      kind: "result",
      result: { success: false, contentItems: [{ type: "inputText", text: TURN_TERMINATED }] },
    };
  return { kind: "error", code: -32000, message: TURN_TERMINATED };
}

/** Pure: the text of upstream's warning for a late request (`method` already bounded). */
export function delayedRequestWarning(method: string): string {
  return `ignored delayed ${method} request after the Codex turn terminated`;
}
