import type { CommandRecord, DurableState } from "./durable-state.js";

/** Commands that end the command stream: after their result is acknowledged the runner leaves. */
export const LIFECYCLE_END: ReadonlySet<string> = new Set(["runner.shutdown", "runner.suspend"]);

/** The lifecycle a `LIFECYCLE_END` command leaves the state in. */
export const streamEndLifecycle = (type: string): "suspended" | "stopped" =>
  type === "runner.suspend" ? "suspended" : "stopped";

/** An end of the command stream a previous runner applied and journalled with its result. */
export interface RecordedStreamEnd {
  readonly commandId: string;
  readonly controllerSeq: number;
  readonly type: string;
  /** The `command_result` as journalled: what is sent again, byte for byte. */
  readonly result: Record<string, unknown>;
}

/**
 * Pure: the end of the command stream a previous runner journalled and whose result the server has
 * not acknowledged to it (`pendingTerminalDelivery` names it, the journal's last command, its result
 * journalled and not a refusal), or null. A relaunch finds one when its predecessor was killed
 * before the acknowledgement reached it; an end acknowledged (a run suspended cleanly, resumed now)
 * is no longer pending, so the run goes on. The result is `done`'s, or `indeterminate`'s: an end
 * pending when a runner died is replayed as indeterminate by its relaunch, which fences it as it
 * sends that result (`CommandApplier.endAgain`); killed before the ack, the next relaunch honours it
 * alike (a pending end is never fenced: the server has no result for it and redelivers it).
 */
export function recordedStreamEnd(state: DurableState): RecordedStreamEnd | null {
  const fence = state.pendingTerminalDelivery;
  if (fence === null || fence.controllerSeq !== state.lastControllerCommandSeq) return null;
  const last: CommandRecord | undefined = state.processedCommands[fence.commandId];
  if (last === undefined || last.controllerSeq !== fence.controllerSeq) return null;
  if (!LIFECYCLE_END.has(last.type) || last.status === "pending") return null;
  if (last.result === null || last.result.status === "rejected") return null;
  return {
    commandId: last.commandId,
    controllerSeq: last.controllerSeq,
    type: last.type,
    result: last.result,
  };
}

/**
 * Pure: a recovered state as a relaunch opens it, before its first welcome. A recorded end keeps
 * the lifecycle it left (`stopped`, `suspended`): a relaunch killed or failing before the welcome
 * decides leaves it as it found it, not `connecting` or a failure over an end still to deliver.
 * A failure recorded before the end completed (a runner failing while a shutdown was applied) is
 * no longer the run's: `recoverableFailure` cleared (its summary stays in `diagnostics`), as no
 * welcome clears it under a standing end.
 * Any other fence is cleared: it names an end the server has moved past (a command was journalled
 * behind it, which the server sends only once it holds the end's result), and nothing would clear
 * it later. Otherwise the run is `connecting`.
 */
export function reopenedState(state: DurableState): DurableState {
  const end = recordedStreamEnd(state);
  if (end !== null) return { ...state, lifecycle: streamEndLifecycle(end.type), recoverableFailure: null };
  return { ...state, lifecycle: "connecting", pendingTerminalDelivery: null };
}

/**
 * Pure: whether the recorded (unacknowledged) end still ends the run, read from the welcome's
 * pending commands. The server sends a command only once it holds the result of the one before,
 * so a pending command after the end says the server has moved past it: the run goes on.
 * Otherwise the end stands: the server redelivers it (it has no result) or redelivers nothing
 * (it has the result; its acknowledgement did not reach the runner).
 */
export function endStands(end: RecordedStreamEnd, pendingCommands: readonly unknown[]): boolean {
  return !pendingCommands.some((command) => {
    const seq = fieldOf(command, "controllerSeq");
    return typeof seq === "number" && seq > end.controllerSeq;
  });
}

/** Pure: whether the welcome's pending commands hold `commandId` (read loosely: a malformed one is refused when it is handled). */
export function redelivers(pendingCommands: readonly unknown[], commandId: unknown): boolean {
  return pendingCommands.some((command) => fieldOf(command, "commandId") === commandId);
}

const fieldOf = (command: unknown, name: "commandId" | "controllerSeq"): unknown =>
  typeof command === "object" && command !== null ? (command as Record<string, unknown>)[name] : undefined;
