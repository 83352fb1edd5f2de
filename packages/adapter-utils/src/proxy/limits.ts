import { SandboxError } from "@paperclipai/errors";

export interface SandboxNetworkProxyLimits {
  /**
   * Concurrent sandbox connections (HTTP and tunnels), and plain-HTTP requests served at
   * once (a pipelined connection sends several); more are refused with 503.
   */
  maxConnections?: number | undefined;
  /**
   * Pipelined requests of one connection whose answers are not sent yet (queued behind an
   * earlier one, or unread by the client); one more closes the connection unanswered.
   */
  maxPipelinedRequests?: number | undefined;
  /** Request line plus headers, in bytes; more gets 431. */
  maxHeaderBytes?: number | undefined;
  /** A CONNECT tunnel with no traffic either way, or a plain-HTTP exchange whose upstream leg is silent, for this long is closed. */
  tunnelIdleMs?: number | undefined;
  /** Time a client has to send a complete request head (slowloris bound); then 408. */
  headersTimeoutMs?: number | undefined;
  /**
   * With the native bridge's tunnel handoff (`handoffBridge`): a CONNECT tunnel is handed to
   * the bridge once the host has relayed this many of its bytes (either way). Shorter
   * exchanges stay relayed here, where the handoff's round trips would cost more than they save.
   */
  handoffAfterBytes?: number | undefined;
  /** Timeout of one DNS query attempt of this proxy's own resolver (c-ares doubles it per retry). */
  dnsTimeoutMs?: number | undefined;
  /** DNS attempts per name server before a name fails. */
  dnsTries?: number | undefined;
  /** Name lookups of this proxy in flight at once; more wait their turn (never another run's). */
  maxConcurrentLookups?: number | undefined;
}

export type ResolvedProxyLimits = { readonly [K in keyof SandboxNetworkProxyLimits]-?: number };

export const DEFAULT_PROXY_LIMITS: ResolvedProxyLimits = {
  maxConnections: 1024,
  maxPipelinedRequests: 32,
  maxHeaderBytes: 16 * 1024,
  tunnelIdleMs: 15 * 60_000,
  headersTimeoutMs: 30_000,
  handoffAfterBytes: 1024 * 1024,
  dnsTimeoutMs: 1_500,
  dnsTries: 2,
  maxConcurrentLookups: 8,
};

export function resolveProxyLimits(limits: SandboxNetworkProxyLimits = {}): ResolvedProxyLimits {
  const resolved = { ...DEFAULT_PROXY_LIMITS };
  for (const name of Object.keys(DEFAULT_PROXY_LIMITS) as (keyof ResolvedProxyLimits)[]) {
    const value: unknown = limits[name];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
      throw new SandboxError(
        "ERR_SANDBOX_PROXY_LIMIT_INVALID",
        `Sandbox network proxy limit ${name} must be a positive integer; got ${String(value)}.`,
        { details: { name, value: typeof value === "number" ? value : String(value) } },
      );
    }
    resolved[name] = value;
  }
  return resolved;
}
