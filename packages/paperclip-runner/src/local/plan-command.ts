import { RECEIPT_MESSAGES } from "../protocol/command-receipt.js";
import { isLocalCommandType } from "../protocol/controller-command.js";
import type { RunFacts, StopCause } from "./run-facts.js";

/** The effect a new, in-sequence command has on the run, or why it is refused. */
export type CommandPlan =
  | { readonly kind: "reject"; readonly message: string }
  | { readonly kind: "prepare" }
  | { readonly kind: "open_session" }
  | { readonly kind: "start_turn" }
  | { readonly kind: "resolve_request"; readonly requestId: string }
  | { readonly kind: "stop"; readonly cause: StopCause };

export const PLAN_MESSAGES = {
  finished: "run has already finished",
  stopping: "run is stopping",
  notPrepared: "run is not prepared",
  sessionOpen: "session is already open",
  sessionNotOpen: "session is not open",
  turnRunning: "a turn is already running",
  noTurn: "no turn is running",
  requestIdMissing: "invalid command: payload.requestId must be a non-empty string",
  unknownRequest: (id: string): string => `unknown request ${id}`,
} as const;

/** Pure: decides a command's effect from the run's facts alone. */
export function planCommand(facts: RunFacts, type: string, payload: Record<string, unknown>): CommandPlan {
  if (!isLocalCommandType(type)) return reject(RECEIPT_MESSAGES.notImplemented(type));
  // The daemon leaves right after the terminal; only commands read in that last moment get here.
  if (facts.terminal !== null) return reject(PLAN_MESSAGES.finished);
  if (facts.stopCause !== null) {
    return type === "runner.shutdown"
      ? { kind: "stop", cause: "runner_shutdown" }
      : reject(PLAN_MESSAGES.stopping);
  }
  switch (type) {
    case "run.prepare":
      return facts.prepared ? reject(RECEIPT_MESSAGES.alreadyPrepared) : { kind: "prepare" };
    case "session.open":
      if (!facts.prepared) return reject(PLAN_MESSAGES.notPrepared);
      return facts.session !== null ? reject(PLAN_MESSAGES.sessionOpen) : { kind: "open_session" };
    case "turn.start":
      if (facts.session === null || facts.phase === "starting_harness")
        return reject(PLAN_MESSAGES.sessionNotOpen);
      return facts.turn !== null ? reject(PLAN_MESSAGES.turnRunning) : { kind: "start_turn" };
    case "turn.interrupt":
      return facts.turn === null ? reject(PLAN_MESSAGES.noTurn) : { kind: "stop", cause: "turn_interrupted" };
    case "request.resolve": {
      const requestId = payload.requestId;
      if (typeof requestId !== "string" || requestId.length === 0)
        return reject(PLAN_MESSAGES.requestIdMissing);
      if (!facts.openRequests.includes(requestId)) return reject(PLAN_MESSAGES.unknownRequest(requestId));
      return { kind: "resolve_request", requestId };
    }
    case "run.cancel":
      return { kind: "stop", cause: "run_cancelled" };
    case "runner.shutdown":
      return { kind: "stop", cause: "runner_shutdown" };
  }
}

function reject(message: string): CommandPlan {
  return { kind: "reject", message };
}
