import { type CanonicalHost, canonicalizeHost } from "./canonical-host.js";
import { parsePortNumber } from "./network-rule.js";

export type ConnectAuthority =
  | { readonly ok: true; readonly host: CanonicalHost; readonly port: number }
  | { readonly ok: false; readonly reason: "invalid_target" | "invalid_port" };

/**
 * Parses a CONNECT request-target (`host:port` or `[v6]:port`). The port is
 * required and must be plain decimal 1-65535; an IPv6 host must be bracketed.
 */
export function parseConnectAuthority(target: string): ConnectAuthority {
  const separator = target.lastIndexOf(":");
  if (separator <= 0) return { ok: false, reason: "invalid_target" };
  const rawHost = target.slice(0, separator);
  if (rawHost.includes(":") && !(rawHost.startsWith("[") && rawHost.endsWith("]"))) {
    return { ok: false, reason: "invalid_target" };
  }
  const host = canonicalizeHost(rawHost);
  if (!host) return { ok: false, reason: "invalid_target" };
  const port = parsePortNumber(target.slice(separator + 1));
  return port === null ? { ok: false, reason: "invalid_port" } : { ok: true, host, port };
}
