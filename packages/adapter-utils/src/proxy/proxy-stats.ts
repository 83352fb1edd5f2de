import type { NetworkDecision } from "./proxy-context.js";

export interface SandboxNetworkProxyStats {
  /** Sandbox connections accepted since start (refused ones included). */
  connections: number;
  /** Sandbox connections open now, tunnels included. */
  activeConnections: number;
  /** Bytes received from the sandbox. */
  bytesIn: number;
  /** Bytes sent to the sandbox. */
  bytesOut: number;
  /** Attempts refused: policy, address checks, lookups, malformed requests, connection limit. */
  denied: number;
  allowed: number;
  /** Tunnels handed to the native bridge; their bytes after the handoff are not in bytesIn/bytesOut. */
  handedOff: number;
}

/** The proxy's running tallies; a closed connection's bytes move here from its socket. */
export interface ProxyCounters {
  connections: number;
  closedBytesIn: number;
  closedBytesOut: number;
  denied: number;
  allowed: number;
  handedOff: number;
}

export function newProxyCounters(): ProxyCounters {
  return { connections: 0, closedBytesIn: 0, closedBytesOut: 0, denied: 0, allowed: 0, handedOff: 0 };
}

/**
 * A decision recorder: counts each decision, then tells `hook` (a copy of the decision).
 * An audit hook must not be able to take the proxy down: what it throws, or its
 * promise rejects with, is dropped.
 */
export function decisionRecorder(
  counters: ProxyCounters,
  hook: ((decision: NetworkDecision) => void) | undefined,
): (decision: NetworkDecision) => void {
  return (decision) => {
    if (decision.decision === "allow") counters.allowed += 1;
    else counters.denied += 1;
    if (!hook) return;
    try {
      const returned: unknown = hook({ ...decision });
      if (returned instanceof Promise) returned.catch(() => {});
    } catch {}
  };
}

/** Byte counts as a socket keeps them. */
export interface ByteCounts {
  readonly bytesRead: number;
  readonly bytesWritten: number;
}

/** The stats now: the tallies, plus the bytes of the connections still `open`. */
export function proxyStats(
  counters: ProxyCounters,
  open: Iterable<ByteCounts>,
  activeConnections: number,
): SandboxNetworkProxyStats {
  let bytesIn = counters.closedBytesIn;
  let bytesOut = counters.closedBytesOut;
  for (const socket of open) {
    bytesIn += socket.bytesRead;
    bytesOut += socket.bytesWritten;
  }
  return {
    connections: counters.connections,
    activeConnections,
    bytesIn,
    bytesOut,
    denied: counters.denied,
    allowed: counters.allowed,
    handedOff: counters.handedOff,
  };
}
