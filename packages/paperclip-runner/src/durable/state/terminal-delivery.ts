import type { DurableState } from "./durable-state.js";

/**
 * Upstream's fence, in its shape: the end of the command stream (`runner.shutdown`/`runner.suspend`)
 * whose result is journalled and not yet acknowledged by the server. Saved with the result, before
 * it is sent; cleared (durably) on its `command_result_ack`, before the runner exits. A relaunch
 * reads it to tell an end still to deliver (it stands) from one the server has (the run goes on).
 */
export interface PendingTerminalDelivery {
  readonly commandId: string;
  readonly controllerSeq: number;
  readonly commandType: string;
  readonly lifecycle: "suspended" | "stopped";
}

/**
 * Pure: the state with `end`'s delivery pending (its result journalled in the same write); a
 * revoked state as it is (`withRevokedLifecycle`: the end completing after the revocation).
 */
export function withTerminalDeliveryPending(
  state: DurableState,
  end: { readonly commandId: string; readonly controllerSeq: number; readonly type: string },
): DurableState {
  if (state.lifecycle === "revoked") return state;
  const lifecycle = end.type === "runner.suspend" ? "suspended" : "stopped";
  return {
    ...state,
    pendingTerminalDelivery: {
      commandId: end.commandId,
      controllerSeq: end.controllerSeq,
      commandType: end.type,
      lifecycle,
    },
  };
}

/** Pure: the state with the fence cleared when the acknowledged result is the one it names. */
export function withTerminalDeliveryAcked(state: DurableState, commandId: unknown): DurableState {
  if (state.pendingTerminalDelivery?.commandId !== commandId) return state;
  return { ...state, pendingTerminalDelivery: null };
}

/**
 * Pure: the state of a run whose lease was revoked before the end of the stream claimed its
 * lifecycle: `revoked`, and no delivery pending. The revocation ended the run, not the end, and a
 * revoked state is never resumed (`refuseRevokedState`; upstream's runner exits at once on one), so
 * no runner would deliver that end's result: a fence would name a delivery nobody makes, its
 * lifecycle contradicting the state's. The server (2026.916.1) reads none either way: its
 * quiescent recovery skips a lifecycle other than `ready`/`suspended`, and its maintenance settle
 * refuses a fenced state and never sees a revoked one settle.
 */
export function withRevokedLifecycle(state: DurableState): DurableState {
  return { ...state, lifecycle: "revoked", recoverableFailure: null, pendingTerminalDelivery: null };
}

/**
 * Pure: the fence as read from a state file: absent (a file written before it was kept) or null is
 * none; anything else must be the fence, or the file is refused (`reason` for the refusal).
 */
export function readTerminalDelivery(
  value: unknown,
): { ok: true; fence: PendingTerminalDelivery | null } | { ok: false; reason: string } {
  if (value === undefined || value === null) return { ok: true, fence: null };
  const fence = value as Record<string, unknown>;
  if (
    typeof value !== "object" ||
    Array.isArray(value) ||
    typeof fence.commandId !== "string" ||
    !Number.isSafeInteger(fence.controllerSeq) ||
    typeof fence.commandType !== "string" ||
    (fence.lifecycle !== "suspended" && fence.lifecycle !== "stopped")
  ) {
    return { ok: false, reason: "pendingTerminalDelivery is malformed" };
  }
  return {
    ok: true,
    fence: {
      commandId: fence.commandId,
      controllerSeq: fence.controllerSeq as number,
      commandType: fence.commandType,
      lifecycle: fence.lifecycle,
    },
  };
}
