import { classifyAddress } from "./address-class.js";
import { type CanonicalHost, canonicalizeHost } from "./canonical-host.js";
import { type HostAddresses, hostLocalAddresses } from "./host-addresses.js";
import type { NetworkRule } from "./network-rule.js";

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a hostname to its addresses. Injected in tests so no real DNS is used. */
export type NetworkResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export type PinnedTarget =
  | { readonly ok: true; readonly addresses: readonly ResolvedAddress[] }
  | { readonly ok: false; readonly denied: boolean; readonly reason: string };

/**
 * Turns an allowed target into the addresses the proxy will connect to, resolving
 * a hostname exactly once. An IP target is its own address. A hostname matched by
 * an allowlist rule must resolve only to public addresses that are not the host's own
 * (`hostAddresses`: every address the kernel delivers here; injected in tests); one matched by a trusted URL may resolve anywhere
 * (the Paperclip control plane is often on loopback).
 */
export async function resolvePinnedTarget(
  host: CanonicalHost,
  rule: NetworkRule,
  resolver: NetworkResolver,
  hostAddresses: () => HostAddresses | Promise<HostAddresses> = hostLocalAddresses,
): Promise<PinnedTarget> {
  if (host.kind !== "domain")
    return { ok: true, addresses: [{ address: host.key, family: host.kind === "ipv6" ? 6 : 4 }] };
  let answers: readonly ResolvedAddress[];
  try {
    answers = await resolver(host.key);
  } catch {
    return { ok: false, denied: false, reason: "dns_lookup_failed" };
  }
  const addresses: ResolvedAddress[] = [];
  let own: HostAddresses | undefined;
  for (const { address } of answers) {
    // Connect to the canonical form, with the family the address really has.
    const canonical = canonicalizeHost(address);
    if (rule.origin === "allowlist") {
      // Every address must be public: a name answering with one public and one internal
      // address would otherwise reach the internal one on the next connection attempt.
      const addressClass = classifyAddress(address);
      if (addressClass !== "public")
        return { ok: false, denied: true, reason: `blocked_address_${addressClass}` };
      own ??= await hostAddresses();
      if (canonical && own.has(canonical.key))
        return { ok: false, denied: true, reason: "blocked_address_host" };
    }
    if (canonical && canonical.kind !== "domain") {
      addresses.push({ address: canonical.key, family: canonical.kind === "ipv6" ? 6 : 4 });
    }
  }
  if (addresses.length === 0) return { ok: false, denied: false, reason: "dns_lookup_failed" };
  return { ok: true, addresses };
}
