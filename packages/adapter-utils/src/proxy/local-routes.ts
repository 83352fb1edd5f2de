/** One prefix the kernel delivers to this host: every address in `address/prefixLength`. */
export interface LocalPrefix {
  readonly address: string;
  readonly prefixLength: number;
  readonly family: "ipv4" | "ipv6";
}

/** `RTF_LOCAL` in `/proc/net/ipv6_route`'s flags: a route of type `local`. */
const RTF_LOCAL = 0x80000000;

/**
 * The shortest local prefix taken as the host's own. A shorter one (`0.0.0.0/0`, `::/0`) is a
 * transparent proxy's catch-all (Clash/mihomo, v2ray, Envoy, Cilium TPROXY: `ip route add local
 * 0.0.0.0/0 dev lo table 100`, consulted only for the packets its rule marks), never a range
 * of addresses the host owns; were it read as one, every allowlisted name would be refused.
 * The kernel's own shortest is `127.0.0.0/8`.
 */
export const MIN_LOCAL_PREFIX_LENGTH = 8;

/**
 * The tables `/proc/net/fib_trie` names that every packet is looked up in, whatever its mark:
 * those of the kernel's default rules, `local` (255), `main` (254) and `default` (253). A
 * policy table (`Id 100:`) serves only the packets its own rule selects (a transparent
 * proxy's marked ones), not the proxy's connections.
 */
const DEFAULT_RULE_TABLES = new Set(["Local:", "Main:", "Id 253:"]);

/**
 * The `LOCAL` entries of `/proc/net/fib_trie` (pure) in the default rules' tables: each table
 * starts with its name at the line's start (`Local:`, `Main:`, `Id 100:`), each leaf line
 * `|-- 10.0.0.5` is followed by one line per route at that key, `/32 host LOCAL` for an address
 * of this host, `/24 host LOCAL` for a whole local prefix (`ip route add local 10.9.0.0/24 dev lo`).
 * Without policy rules the kernel merges `local` into `main` and prints that trie under both names.
 */
export function parseFibTrieLocal(text: string): LocalPrefix[] {
  const prefixes: LocalPrefix[] = [];
  let reading = false;
  let leaf: string | null = null;
  for (const line of text.split("\n")) {
    if (/^\S/.test(line)) {
      reading = DEFAULT_RULE_TABLES.has(line.trimEnd());
      leaf = null;
      continue;
    }
    const key = /^\s*\|-- (\d+\.\d+\.\d+\.\d+)\s*$/.exec(line);
    if (key) {
      leaf = key[1]!;
      continue;
    }
    const route = /^\s*\/(\d+) \S+ LOCAL\s*$/.exec(line);
    if (!route || !leaf || !reading) continue;
    const prefixLength = Number(route[1]);
    if (prefixLength >= MIN_LOCAL_PREFIX_LENGTH)
      prefixes.push({ address: leaf, prefixLength, family: "ipv4" });
  }
  return prefixes;
}

/** 32 hex digits as an IPv6 address in eight groups. */
function hexToIpv6(hex: string): string {
  return hex.match(/.{4}/g)!.join(":");
}

interface Ipv6Route {
  readonly hex: string;
  readonly prefixLength: number;
  readonly flags: number;
}

function ipv6Routes(text: string): Ipv6Route[] {
  const routes: Ipv6Route[] = [];
  for (const line of text.split("\n")) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10 || !/^[0-9a-f]{32}$/i.test(fields[0]!)) continue;
    routes.push({
      hex: fields[0]!,
      prefixLength: Number.parseInt(fields[1]!, 16),
      flags: Number.parseInt(fields[8]!, 16),
    });
  }
  return routes;
}

/**
 * The local routes of the `local` table in `/proc/net/ipv6_route` (pure): its lines, one a
 * route, the destination and its prefix length in hex, the flags ninth, carry no table. The
 * kernel lists its tables one after another, in the order of its table hash (table id mod 256,
 * a later table first within a bucket): `local` (255) is made with the namespace, so it comes
 * last. Each table ends with its root, `::/0` (its default routes, else the kernel's null
 * entry, `ffffffff` metric): the `local` table is what follows the last `::/0` that another
 * route follows. There, `RTF_LOCAL` marks an address of this host or a local prefix (`ip -6
 * route add local 2001:db8::/64 dev lo`). A local route put in `main` or a policy table is
 * not read (a transparent proxy's `local ::/0 dev lo table 100` is one); nor is a prefix
 * shorter than `MIN_LOCAL_PREFIX_LENGTH`, in case a kernel listed its tables otherwise.
 */
export function parseIpv6RouteLocal(text: string): LocalPrefix[] {
  const routes = ipv6Routes(text);
  let localTable = 0;
  for (let i = 1; i < routes.length; i += 1)
    if (routes[i - 1]!.prefixLength === 0 && routes[i]!.prefixLength !== 0) localTable = i;
  return routes
    .slice(localTable)
    .filter((route) => (route.flags & RTF_LOCAL) !== 0 && route.prefixLength >= MIN_LOCAL_PREFIX_LENGTH)
    .map((route) => ({ address: hexToIpv6(route.hex), prefixLength: route.prefixLength, family: "ipv6" }));
}

/**
 * Every IPv6 address of `/proc/net/if_inet6` (pure), whatever its state (tentative, on an
 * interface that is down): refusing one the kernel would not deliver yet costs nothing.
 */
export function parseIfInet6(text: string): LocalPrefix[] {
  return addressesInColumn(text, 0);
}

/**
 * Every IPv6 anycast address of `/proc/net/anycast6` (pure; `<ifindex> <device> <address>
 * <users>`): the kernel delivers them locally (`RTF_ANYCAST` routes, not `RTF_LOCAL`), and
 * `if_inet6` lists unicast addresses only. A host forwarding IPv6 has the subnet-router
 * anycast address `<prefix>::` of each of its prefixes.
 */
export function parseAnycast6(text: string): LocalPrefix[] {
  return addressesInColumn(text, 2);
}

/** The IPv6 address (32 hex digits) in field `column` of each line of a `/proc/net` table, as a /128. */
function addressesInColumn(text: string, column: number): LocalPrefix[] {
  const prefixes: LocalPrefix[] = [];
  for (const line of text.split("\n")) {
    const hex = line.trim().split(/\s+/)[column] ?? "";
    if (/^[0-9a-f]{32}$/i.test(hex))
      prefixes.push({ address: hexToIpv6(hex), prefixLength: 128, family: "ipv6" });
  }
  return prefixes;
}
