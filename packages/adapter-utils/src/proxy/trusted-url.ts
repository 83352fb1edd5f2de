import { canonicalizeHost } from "./canonical-host.js";
import type { NetworkRule } from "./network-rule.js";

export interface TrustedNetworkTarget {
  hostname: string;
  port: string;
}

/**
 * Upstream's `parseTrustedNetworkUrl`: an `http:`/`https:` URL gives its lowercase
 * hostname and its port, the scheme default made explicit; anything else (including
 * a host the package's canonicalisation refuses, such as invalid Punycode) gives `null`.
 */
export function parseTrustedNetworkUrl(value: unknown): TrustedNetworkTarget | null {
  if (typeof value !== "string") return null;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  // Which hosts URL accepts differs between Node versions; the package's canonical form decides.
  if (!canonicalizeHost(parsed.hostname)) return null;
  return {
    hostname: parsed.hostname.toLowerCase(),
    port: parsed.port || (parsed.protocol === "https:" ? "443" : "80"),
  };
}

/** The rule a trusted URL stands for: exactly its origin's host and port. */
export function trustedUrlRule(value: unknown): NetworkRule | null {
  const target = parseTrustedNetworkUrl(value);
  if (!target) return null;
  const host = canonicalizeHost(target.hostname);
  return host ? { host, ports: { kind: "exact", port: Number(target.port) }, origin: "trusted_url" } : null;
}
