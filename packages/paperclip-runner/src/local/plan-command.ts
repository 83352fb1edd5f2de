import { isLocalCommandType } from "../commands/controller-command.js";
import { RECEIPT_DETAILS } from "../events/receipt-details.js";
import type { RunFacts, StopIntent } from "./run-facts.js";

/** The effect a new, in-sequence command has on the run, or why it is refused. */
export type CommandPlan =
  | { readonly kind: "reject"; readonly detail: string }
  | { readonly kind: "prepare" }
  | { readonly kind: "open_session" }
  | { readonly kind: "start_turn"; readonly turnId: string | null }
  | { readonly kind: "resolve_request"; readonly requestId: string }
  | { readonly kind: "close_session" }
  /** Forward the command, then let the harness leave on its own (turn.interrupt, turn.stop). */
  | { readonly kind: "interrupt" }
  /** Forward the command, then stop the harness (run.cancel, runner.shutdown). */
  | { readonly kind: "stop"; readonly intent: StopIntent };

export const PLAN_DETAILS = {
  finished: "run has already finished",
  stopping: "run is stopping",
  notPrepared: "run is not prepared",
  preparing: "run is being prepared",
  sessionOpen: "session is already open",
  sessionNotOpen: "session is not open",
  turnRunning: "a turn is already running",
  noTurn: "no turn is running",
  requestIdMissing: "invalid command: payload.requestId must be a non-empty string",
  turnIdInvalid: "invalid command: payload.turnId must be a string of 1 to 240 characters",
  unknownRequest: (id: string): string => `unknown request ${id}`,
} as const;

/** Pure: decides a command's effect from the run's facts alone. */
export function planCommand(facts: RunFacts, type: string, payload: Record<string, unknown>): CommandPlan {
  if (!isLocalCommandType(type)) return reject(RECEIPT_DETAILS.notImplemented(type));
  // The daemon leaves right after the terminal; only commands read in that last moment get here.
  if (facts.terminal !== null) return reject(PLAN_DETAILS.finished);
  if (facts.stopIntent !== null) {
    return type === "runner.shutdown"
      ? { kind: "stop", intent: "runner_shutdown" }
      : reject(PLAN_DETAILS.stopping);
  }
  switch (type) {
    case "run.prepare":
      return facts.prepared ? reject(RECEIPT_DETAILS.alreadyPrepared) : { kind: "prepare" };
    case "session.open":
      if (!facts.prepared) return reject(PLAN_DETAILS.notPrepared);
      if (facts.phase === "preparing") return reject(PLAN_DETAILS.preparing);
      return facts.session !== null ? reject(PLAN_DETAILS.sessionOpen) : { kind: "open_session" };
    case "turn.start": {
      if (facts.session === null) return reject(PLAN_DETAILS.sessionNotOpen);
      if (facts.turn !== null) return reject(PLAN_DETAILS.turnRunning);
      const turnId = payload.turnId ?? null;
      if (turnId !== null && (typeof turnId !== "string" || turnId.length === 0 || turnId.length > 240))
        return reject(PLAN_DETAILS.turnIdInvalid);
      return { kind: "start_turn", turnId };
    }
    case "turn.interrupt":
    case "turn.stop":
      return facts.turn === null ? reject(PLAN_DETAILS.noTurn) : { kind: "interrupt" };
    case "request.resolve": {
      const requestId = payload.requestId;
      if (typeof requestId !== "string" || requestId.length === 0)
        return reject(PLAN_DETAILS.requestIdMissing);
      if (!facts.openRequests.includes(requestId)) return reject(PLAN_DETAILS.unknownRequest(requestId));
      return { kind: "resolve_request", requestId };
    }
    case "session.close":
      return facts.session === null ? reject(PLAN_DETAILS.sessionNotOpen) : { kind: "close_session" };
    case "run.cancel":
      return { kind: "stop", intent: "cancelled" };
    case "runner.shutdown":
      return { kind: "stop", intent: "runner_shutdown" };
  }
}

function reject(detail: string): CommandPlan {
  return { kind: "reject", detail };
}
