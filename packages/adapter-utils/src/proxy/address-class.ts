import { BlockList } from "node:net";
import { canonicalizeHost } from "./canonical-host.js";

/** Why an address is not a public internet destination, or `public`. */
export type AddressClass =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "unique_local"
  | "link_local"
  | "cgnat"
  | "multicast"
  | "broadcast"
  | "documentation"
  | "benchmarking"
  | "reserved"
  | "invalid";

type Subnet = readonly [network: string, prefix: number];

// Order matters only for overlapping ranges: the more specific class comes first.
const IPV4_RANGES: ReadonlyArray<readonly [AddressClass, readonly Subnet[]]> = [
  ["broadcast", [["255.255.255.255", 32]]],
  ["unspecified", [["0.0.0.0", 8]]],
  ["loopback", [["127.0.0.0", 8]]],
  [
    "private",
    [
      ["10.0.0.0", 8],
      ["172.16.0.0", 12],
      ["192.168.0.0", 16],
    ],
  ],
  ["link_local", [["169.254.0.0", 16]]],
  ["cgnat", [["100.64.0.0", 10]]],
  ["multicast", [["224.0.0.0", 4]]],
  [
    "documentation",
    [
      ["192.0.2.0", 24],
      ["198.51.100.0", 24],
      ["203.0.113.0", 24],
    ],
  ],
  ["benchmarking", [["198.18.0.0", 15]]],
  [
    "reserved",
    [
      ["192.0.0.0", 24],
      ["240.0.0.0", 4],
    ],
  ],
];

const IPV6_RANGES: ReadonlyArray<readonly [AddressClass, readonly Subnet[]]> = [
  ["unspecified", [["::", 128]]],
  ["loopback", [["::1", 128]]],
  ["unique_local", [["fc00::", 7]]],
  ["link_local", [["fe80::", 10]]],
  ["private", [["fec0::", 10]]], // deprecated site-local, still routed inside some networks
  ["multicast", [["ff00::", 8]]],
  [
    "documentation",
    [
      ["2001:db8::", 32],
      ["3fff::", 20],
    ],
  ],
  ["benchmarking", [["2001:2::", 48]]],
  // IPv4-compatible, discard-only, IETF protocol assignments (Teredo included), ORCHID, segment routing.
  [
    "reserved",
    [
      ["::", 96],
      ["100::", 64],
      ["2001::", 23],
      ["5f00::", 16],
      // Local-use NAT64 (RFC 8215), not globally reachable: its operator picks where the
      // IPv4 address sits (a /48, /56, /64 or /96 prefix, RFC 6052), so no one reading
      // of an address can be trusted: `64:ff9b:1:7f00:0:100:808:808` is 8.8.8.8 read
      // as a /96 and 127.0.0.1 through a /48 translator.
      ["64:ff9b:1::", 48],
    ],
  ],
];

function compile(ranges: ReadonlyArray<readonly [AddressClass, readonly Subnet[]]>, type: "ipv4" | "ipv6") {
  return ranges.map(([addressClass, subnets]) => {
    const list = new BlockList();
    for (const [network, prefix] of subnets) list.addSubnet(network, prefix, type);
    return [addressClass, list] as const;
  });
}

const IPV4_LISTS = compile(IPV4_RANGES, "ipv4");
const IPV6_LISTS = compile(IPV6_RANGES, "ipv6");

/**
 * Global unicast, the only IPv6 space the internet routes. Whatever else no range above
 * names (the rest of `::/8`, SIIT's IPv4-translated `::ffff:0:0:0/96`, `4000::/2`, ...) is
 * no public destination: a stateless translator on the host's network would carry
 * `::ffff:0:7f00:1` to 127.0.0.1.
 */
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet("2000::", 3, "ipv6");

function hextets(ipv6: string): number[] {
  const [head = "", tail] = ipv6.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...fill, ...right].map((part) => Number.parseInt(part, 16));
}

function ipv4FromHextets(high: number, low: number): string {
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * The IPv4 address an IPv6 translation prefix carries: NAT64 (`64:ff9b::/96`)
 * and 6to4 (`2002::/16`); the local-use `64:ff9b:1::/48` is refused whole above. Such an address reaches
 * that IPv4 host, so it is classified as the IPv4 host is.
 */
function embeddedIpv4(ipv6: string): string | null {
  const h = hextets(ipv6);
  if (h[0] === 0x64 && h[1] === 0xff9b && h.slice(2, 6).every((x) => x === 0))
    return ipv4FromHextets(h[6]!, h[7]!);
  if (h[0] === 0x2002) return ipv4FromHextets(h[1]!, h[2]!);
  return null;
}

/** Classifies an IP address (any textual form, IPv4-mapped IPv6 included) for the SSRF check. */
export function classifyAddress(address: string): AddressClass {
  const host = canonicalizeHost(address);
  if (!host || host.kind === "domain") return "invalid";
  if (host.kind === "ipv4") {
    for (const [addressClass, list] of IPV4_LISTS) if (list.check(host.key, "ipv4")) return addressClass;
    return "public";
  }
  for (const [addressClass, list] of IPV6_LISTS) if (list.check(host.key, "ipv6")) return addressClass;
  const embedded = embeddedIpv4(host.key);
  if (embedded) return classifyAddress(embedded);
  return GLOBAL_UNICAST.check(host.key, "ipv6") ? "public" : "reserved";
}
