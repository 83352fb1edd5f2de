import { isIP } from "node:net";
import type { ResolvedAddress } from "./resolve-target.js";

/** Lowercase, without a trailing dot: how both `/etc/hosts` names and looked-up names are compared. */
export function hostsKey(name: string): string {
  return name.toLowerCase().replace(/\.$/, "");
}

/**
 * The name-to-address table of an `/etc/hosts` file, as glibc's `files` source
 * reads it: one address then its names per line, `#` starts a comment, names are
 * case-insensitive, a name listed on several lines has every address, in file
 * order. Lines whose address is not an IP literal are skipped.
 */
export function parseHostsFile(text: string): Map<string, ResolvedAddress[]> {
  const table = new Map<string, ResolvedAddress[]>();
  for (const rawLine of text.split("\n")) {
    const [address, ...names] = rawLine.replace(/#.*/, "").trim().split(/\s+/);
    const family = address ? isIP(address) : 0;
    if (family === 0 || names.length === 0) continue;
    for (const name of names) {
      const key = hostsKey(name);
      const addresses = table.get(key) ?? [];
      if (!addresses.some((known) => known.address === address)) {
        addresses.push({ address: address!, family: family === 6 ? 6 : 4 });
      }
      table.set(key, addresses);
    }
  }
  return table;
}
