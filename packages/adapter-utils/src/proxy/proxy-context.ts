import type { Agent } from "node:http";
import type { Socket } from "node:net";
import type { TunnelCourier } from "../handoff/tunnel-courier.js";
import type { CanonicalHost } from "./canonical-host.js";
import type { ResolvedProxyLimits } from "./limits.js";
import type { RequestSlots } from "./request-slots.js";
import type { TargetDecision } from "./target-decision.js";

/** One network attempt as reported to `onNetworkDecision`: never headers or bodies. */
export interface NetworkDecision {
  decision: "allow" | "deny";
  /** Canonical host (IPv6 in brackets), or the raw target, truncated, when it did not parse. */
  host: string;
  /** 0 when the attempt carried no usable port. */
  port: number;
  /** `allowlist`/`trusted_url` for allows; for denials the same token as the `X-Proxy-Error` header. */
  reason: string;
}

/** What the HTTP and CONNECT handlers share with the server shell. */
export interface ProxyContext {
  readonly limits: ResolvedProxyLimits;
  readonly agent: Agent;
  /** Upstream sockets, destroyed by `close()`. */
  readonly upstreamSockets: Set<Socket>;
  /** Plain-HTTP requests being served, at most `limits.maxConnections`. */
  readonly requestSlots: RequestSlots;
  /** Present when a courier runs: tunnels of the bridge's connections (on relay.sock) are offered to it. */
  readonly handoff?: TunnelHandoff | undefined;
  /** Policy, single resolution and address check; never rejects. */
  decide(host: CanonicalHost, port: number): Promise<TargetDecision>;
  record(decision: NetworkDecision): void;
}

export interface TunnelHandoff {
  readonly courier: TunnelCourier;
  /** The bridge's connections (accepted on relay.sock), and the id the host gave each. */
  readonly ids: WeakMap<Socket, string>;
  onHandedOff(): void;
}

export const DENIED_MESSAGE = "Network target denied by Paperclip sandbox policy.";
export const CONNECTION_LIMIT_MESSAGE = "Paperclip sandbox proxy connection limit reached.";
export const UPSTREAM_ERROR_MESSAGE = "Paperclip sandbox proxy could not reach the upstream server.";
