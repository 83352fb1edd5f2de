import { PaperclipError } from "@paperclipai/errors";
import type { CodexProviderState, CompletionContract } from "./codex-provider-state.js";
import { NO_GOALS } from "./session-goals.js";

/** What a command did, as the executor reports it (its receipt status, message and result object). */
export interface CommandOutcome {
  readonly status: "accepted" | "rejected" | "failed";
  readonly detail: string;
  readonly result?: Record<string, unknown>;
}

export const APPLIED = "command applied";

export function applied(result: Record<string, unknown>): CommandOutcome {
  return { status: "accepted", detail: APPLIED, result };
}

export function rejected(detail: string, result?: Record<string, unknown>): CommandOutcome {
  return result === undefined ? { status: "rejected", detail } : { status: "rejected", detail, result };
}

/** A command the provider's state refuses: upstream's runner fails it with this result. */
export function executionFailed(message: string): CommandOutcome {
  return { status: "failed", detail: message, result: { code: "command_execution_failed", message } };
}

/**
 * A command the executor does not implement: upstream's runner completes it with
 * a rejected result (the server's transport takes that as done), not a refusal.
 */
export function unavailable(): CommandOutcome {
  return applied({
    code: "provider_command_unavailable",
    message: "the Codex provider does not implement this command in the current layer",
    status: "rejected",
  });
}

/**
 * `run.attach`, bound or not: refused, not completed, the server's transport would otherwise rotate
 * the run onto a session this runner never re-bound (warm attach is not implemented here).
 * Upstream's runner, before any bound provider, binds one from the payload and opens a session.
 */
export function attachRefused(): CommandOutcome {
  return rejected("run.attach (warm re-bind to a new run) is not implemented by this runner", {
    status: "rejected",
    code: "provider_command_unavailable",
  });
}

/**
 * Pure: a command that threw. A provider configuration refused (kind, descriptor, tools) fails
 * with upstream's result (`command_execution_failed` and its message, as upstream's runner answers
 * a refused `run.prepare`); any other error fails with its coded text.
 */
export function failedOutcome(error: unknown): CommandOutcome {
  if (error instanceof PaperclipError) {
    if (
      error.code === "ERR_RUNNER_PROVIDER_KIND_UNSUPPORTED" ||
      error.code === "ERR_RUNNER_PROVIDER_CONFIG_INVALID"
    ) {
      return executionFailed(error.message);
    }
    return { status: "failed", detail: `${error.code}: ${error.message}` };
  }
  return { status: "failed", detail: String((error as Error)?.message ?? error).slice(0, 1000) };
}

/** Pure: the completion contract of `run.prepare`, when it names a revision and criteria. */
export function readCompletionContract(value: unknown): CompletionContract | null {
  const contract = value as { revision?: unknown; criterionIds?: unknown } | null | undefined;
  if (contract === null || contract === undefined || typeof contract !== "object") return null;
  if (typeof contract.revision !== "string" && typeof contract.revision !== "number") return null;
  if (!Array.isArray(contract.criterionIds)) return null;
  return { revision: String(contract.revision), criterionIds: contract.criterionIds.map(String) };
}

/** Pure: the `session.snapshot` result the server's `thread/read` reads. */
export function sessionSnapshot(state: CodexProviderState): Record<string, unknown> {
  const goals = state.goals ?? NO_GOALS;
  return {
    status: state.lifecycle,
    provider: state.config.provider,
    driver: state.config.driver,
    driverSessionId: state.threadId,
    providerSessionId: state.threadId,
    sessionId: state.providerAccountSessionId,
    providerAccountSessionId: state.providerAccountSessionId,
    activeProviderTurnId: state.activeProviderTurnId,
    // Never probed (no session.open yet): none, as upstream's runner reports it.
    sessionGoals: goals.goalRevision === 0 ? null : goals.sessionGoals,
    goal: goals.goal,
    goalRevision: goals.goalRevision,
    warmAttachReady: false,
    warmAttachBlockers: ["warm_attach_unsupported"],
    cwd: state.config.cwd,
  };
}

/** Pure: the `session.open` result (the provider identity the transport also reads from events). */
export function sessionOpenResult(
  state: CodexProviderState,
  status: "started" | "resumed",
): Record<string, unknown> {
  return {
    status,
    provider: state.config.provider,
    driver: state.config.driver,
    providerVersion: state.config.providerVersion,
    providerSessionId: state.threadId,
    processId: state.processId,
  };
}
