import type { TerminalAuthority } from "./codex-provider-state.js";

/** What `paperclip_finish` / `paperclip_block` decide for the run's result (upstream's terminal authority). */
export function terminalAuthority(
  operationId: string,
  isError: boolean,
  result: unknown,
): TerminalAuthority | null {
  if (isError) return null;
  const value = (result ?? {}) as Record<string, unknown>;
  const summary = typeof value.summary === "string" ? value.summary : "";
  if (operationId === "paperclip_block") return { disposition: "blocked", summary };
  if (operationId !== "paperclip_finish") return null;
  return { disposition: value.status === "needs_review" ? "needs_review" : "done", summary };
}
