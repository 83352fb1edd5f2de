/** One prefix the kernel delivers to this host: every address in `address/prefixLength`. */
export interface LocalPrefix {
  readonly address: string;
  readonly prefixLength: number;
  readonly family: "ipv4" | "ipv6";
}

/** `RTF_LOCAL` in `/proc/net/ipv6_route`'s flags: a route of the local table (`ip -6 route show table local type local`). */
const RTF_LOCAL = 0x80000000;

/**
 * The `LOCAL` entries of `/proc/net/fib_trie` (pure): each leaf line `|-- 10.0.0.5` is followed
 * by one line per route at that key, `/32 host LOCAL` for an address of this host, `/24 host
 * LOCAL` for a whole local prefix (`ip route add local 10.9.0.0/24 dev lo`).
 */
export function parseFibTrieLocal(text: string): LocalPrefix[] {
  const prefixes: LocalPrefix[] = [];
  let leaf: string | null = null;
  for (const line of text.split("\n")) {
    const key = /^\s*\|-- (\d+\.\d+\.\d+\.\d+)\s*$/.exec(line);
    if (key) {
      leaf = key[1]!;
      continue;
    }
    const route = /^\s*\/(\d+) \S+ LOCAL\s*$/.exec(line);
    if (route && leaf) prefixes.push({ address: leaf, prefixLength: Number(route[1]), family: "ipv4" });
  }
  return prefixes;
}

/** 32 hex digits as an IPv6 address in eight groups. */
function hexToIpv6(hex: string): string {
  return hex.match(/.{4}/g)!.join(":");
}

/**
 * The local routes of `/proc/net/ipv6_route` (pure): every table's routes, one a line, the
 * destination and its prefix length in hex, the flags ninth; `RTF_LOCAL` marks an address of
 * this host or a local prefix (`ip -6 route add local 2001:db8::/64 dev lo`).
 */
export function parseIpv6RouteLocal(text: string): LocalPrefix[] {
  const prefixes: LocalPrefix[] = [];
  for (const line of text.split("\n")) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10 || !/^[0-9a-f]{32}$/i.test(fields[0]!)) continue;
    const flags = Number.parseInt(fields[8]!, 16);
    if ((flags & RTF_LOCAL) === 0) continue;
    prefixes.push({
      address: hexToIpv6(fields[0]!),
      prefixLength: Number.parseInt(fields[1]!, 16),
      family: "ipv6",
    });
  }
  return prefixes;
}

/**
 * Every IPv6 address of `/proc/net/if_inet6` (pure), whatever its state (tentative, on an
 * interface that is down): refusing one the kernel would not deliver yet costs nothing.
 */
export function parseIfInet6(text: string): LocalPrefix[] {
  const prefixes: LocalPrefix[] = [];
  for (const line of text.split("\n")) {
    const hex = line.trim().split(/\s+/)[0] ?? "";
    if (/^[0-9a-f]{32}$/i.test(hex))
      prefixes.push({ address: hexToIpv6(hex), prefixLength: 128, family: "ipv6" });
  }
  return prefixes;
}
