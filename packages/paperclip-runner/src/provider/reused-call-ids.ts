import type { CodexSession } from "./codex-session.js";

/** A pending call's JSON-RPC request: its id, the session it came on, its params (canonical JSON). */
export interface LiveCall {
  readonly rpcId: string | number;
  readonly session: CodexSession;
  readonly paramsKey: string;
}

/**
 * Pure: how Codex's `item/tool/call` relates to the calls still open on its session (`open`, by
 * call id), as upstream's runner judges it (observed with its binary): `new`; `same` for the
 * request again (its JSON-RPC id, call id and params), which is nothing more; or the protocol
 * violation, in upstream's words, for an open call's JSON-RPC id naming another call, or an open
 * call's id under another request or with other params.
 */
export function reusedCallIds(
  open: readonly (readonly [string, LiveCall])[],
  rpcId: string | number,
  callId: string,
  paramsKey: string,
): "new" | "same" | string {
  const byRpcId = open.find(([, live]) => live.rpcId === rpcId);
  if (byRpcId !== undefined && byRpcId[0] !== callId)
    return "Codex reused a pending JSON-RPC id for another tool call";
  const byCallId = open.find(([id]) => id === callId)?.[1];
  if (byCallId === undefined) return "new";
  return byCallId.rpcId === rpcId && byCallId.paramsKey === paramsKey
    ? "same"
    : "Codex reused a tool call id with different input";
}
