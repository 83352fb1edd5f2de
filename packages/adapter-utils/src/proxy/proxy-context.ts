import type { Agent } from "node:http";
import type { Socket } from "node:net";
import type { CanonicalHost } from "./canonical-host.js";
import type { ResolvedProxyLimits } from "./limits.js";
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
  /** Policy, single resolution and address check; never rejects. */
  decide(host: CanonicalHost, port: number): Promise<TargetDecision>;
  record(decision: NetworkDecision): void;
}

const MAX_REPORTED_HOST_LENGTH = 255;

export function reportedHost(raw: string): string {
  return raw.length > MAX_REPORTED_HOST_LENGTH ? raw.slice(0, MAX_REPORTED_HOST_LENGTH) : raw;
}

export const DENIED_MESSAGE = "Network target denied by Paperclip sandbox policy.";
export const UPSTREAM_ERROR_MESSAGE = "Paperclip sandbox proxy could not reach the upstream server.";
