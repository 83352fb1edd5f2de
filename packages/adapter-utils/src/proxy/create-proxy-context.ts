import { Agent } from "node:http";
import type { TunnelCourier } from "../handoff/tunnel-courier.js";
import type { ResolvedProxyLimits } from "./limits.js";
import type { NetworkPolicy } from "./network-policy.js";
import type { NetworkDecision, ProxyContext } from "./proxy-context.js";
import { decisionRecorder, type ProxyCounters } from "./proxy-stats.js";
import { RequestSlots } from "./request-slots.js";
import type { NetworkResolver } from "./resolve-target.js";
import { decideNetworkTarget, type TargetDecision } from "./target-decision.js";

const PROXY_CLOSED: TargetDecision = { decision: "deny", reason: "proxy_closed", failure: "policy" };
const LOOKUP_FAILED: TargetDecision = { decision: "deny", reason: "dns_lookup_failed", failure: "lookup" };

/**
 * A proxy's `decide`: the target decision, never rejecting. A lookup that finishes after
 * `close()` began is denied, so it opens no connection nobody would close.
 */
export function closingAwareDecide(
  policy: NetworkPolicy,
  resolver: NetworkResolver,
  isClosing: () => boolean,
): ProxyContext["decide"] {
  return (host, port) =>
    decideNetworkTarget(policy, host, port, resolver).then(
      (verdict) => (isClosing() ? PROXY_CLOSED : verdict),
      () => LOOKUP_FAILED,
    );
}

export interface ProxyContextInput {
  readonly policy: NetworkPolicy;
  readonly limits: ResolvedProxyLimits;
  readonly resolver: NetworkResolver;
  /** Present when tunnels of the native bridge's connections may be handed to it. */
  readonly courier: TunnelCourier | null;
  readonly counters: ProxyCounters;
  readonly onNetworkDecision: ((decision: NetworkDecision) => void) | undefined;
  /** Whether the proxy's `close()` has begun. */
  readonly isClosing: () => boolean;
}

/** What the HTTP and CONNECT handlers of one proxy share (`proxy-context.ts`). */
export function createProxyContext(input: ProxyContextInput): ProxyContext {
  const { counters, courier } = input;
  return {
    limits: input.limits,
    agent: new Agent({ keepAlive: true }),
    upstreamSockets: new Set(),
    requestSlots: new RequestSlots(input.limits.maxConnections),
    handoff: courier
      ? { courier, ids: new WeakMap(), onHandedOff: () => (counters.handedOff += 1) }
      : undefined,
    decide: closingAwareDecide(input.policy, input.resolver, input.isClosing),
    record: decisionRecorder(counters, input.onNetworkDecision),
  };
}
