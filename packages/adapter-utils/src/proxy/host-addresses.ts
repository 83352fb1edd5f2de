import { networkInterfaces } from "node:os";
import { canonicalizeHost } from "./canonical-host.js";

/**
 * The canonical form of every address on this host's interfaces (the proxy's network
 * namespace), read at each call: DHCP, VPNs and containers change them while a proxy runs.
 * A public address among them is still this host: the SSRF check refuses it, or a name
 * answering it would open every service here that listens on all addresses.
 */
export function hostInterfaceAddresses(): ReadonlySet<string> {
  const keys = new Set<string>();
  for (const infos of Object.values(networkInterfaces())) {
    for (const info of infos ?? []) {
      // A scoped address (`fe80::1%eth0`) is link-local, refused whatever its zone.
      const host = canonicalizeHost(info.address.replace(/%.*$/, ""));
      if (host && host.kind !== "domain") keys.add(host.key);
    }
  }
  return keys;
}
