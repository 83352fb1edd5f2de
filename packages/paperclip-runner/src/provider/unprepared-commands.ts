import {
  applied,
  attachRefused,
  type CommandOutcome,
  executionFailed,
  unavailable,
} from "./command-outcome.js";
import { resultShapeError } from "./tool-result-shape.js";

/** Upstream's words for a command that needs the provider's configuration. */
const NOT_PREPARED = "Codex provider is not prepared";
const NOT_BEEN_PREPARED = "Codex provider has not been prepared";

/**
 * Pure: how a command is answered when a `run.prepare` selected the Codex executor but bound no
 * provider (its descriptor was refused), as upstream's runner answers it (observed with its
 * shipped binary). Ours used to fail each with an uncoded "run.prepare has not bound a provider".
 * A `turn.start` upstream's runner never answers (the server's command waits for good); ours
 * fails it, its text checked first as for a prepared provider (docs/compatibility.md).
 */
export function unpreparedOutcome(type: string, payload: Record<string, unknown>): CommandOutcome {
  switch (type) {
    case "turn.start":
      if (typeof payload.text !== "string") return executionFailed("turn.start payload.text is required");
      return executionFailed(NOT_BEEN_PREPARED);
    case "turn.steer":
      if (typeof payload.text !== "string") return executionFailed("turn.steer payload.text is required");
      return executionFailed(NOT_BEEN_PREPARED);
    case "session.open":
      return executionFailed(NOT_BEEN_PREPARED);
    case "run.attach":
      // Upstream's runner binds a provider from the payload and opens a session; ours implements
      // no warm attach and refuses it as when bound (docs/compatibility.md).
      return attachRefused();
    case "turn.interrupt":
    case "run.cancel":
    case "turn.stop":
      return applied({ status: "already_settled", reason: type });
    case "request.resolve":
      if (typeof payload.requestId !== "string") return executionFailed("request.resolve requires requestId");
      return executionFailed("cannot resolve a Codex runtime request outside an active turn");
    case "semantic_tool.result": {
      const shapeError = resultShapeError(payload);
      if (shapeError !== null) return executionFailed(`semantic tool result is invalid: ${shapeError}`);
      return executionFailed(NOT_PREPARED);
    }
    case "session.goal.get":
    case "session.goal.set":
    case "session.goal.clear":
      return executionFailed("Codex session goals are unavailable for this provider session");
    case "session.snapshot":
    case "session.close":
    case "session.destroy":
      return executionFailed(NOT_PREPARED);
    default:
      return unavailable();
  }
}
