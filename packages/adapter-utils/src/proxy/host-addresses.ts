import { readFile } from "node:fs/promises";
import { BlockList } from "node:net";
import { networkInterfaces } from "node:os";
import { canonicalizeHost } from "./canonical-host.js";
import {
  type LocalPrefix,
  parseAnycast6,
  parseFibTrieLocal,
  parseIfInet6,
  parseIpv6RouteLocal,
} from "./local-routes.js";

/** Whether a canonical address key is one of this host's own (a `ReadonlySet` is one, in tests). */
export interface HostAddresses {
  has(key: string): boolean;
}

/** The kernel's own lists, in the proxy's network namespace: its local routes and IPv6 addresses, anycast too. */
const KERNEL_LISTS: readonly [string, (text: string) => LocalPrefix[]][] = [
  ["/proc/net/fib_trie", parseFibTrieLocal],
  ["/proc/net/ipv6_route", parseIpv6RouteLocal],
  ["/proc/net/if_inet6", parseIfInet6],
  ["/proc/net/anycast6", parseAnycast6],
];

async function readKernelLists(): Promise<LocalPrefix[]> {
  const lists = await Promise.all(
    KERNEL_LISTS.map(([file, parse]) => readFile(file, "latin1").then(parse, () => [] as LocalPrefix[])),
  );
  return lists.flat();
}

/** `os.networkInterfaces()`: what a kernel without `/proc/net` still tells (up, running interfaces). */
function interfacePrefixes(): LocalPrefix[] {
  const prefixes: LocalPrefix[] = [];
  for (const infos of Object.values(networkInterfaces())) {
    for (const info of infos ?? []) {
      // A scoped address (`fe80::1%eth0`) is link-local, refused whatever its zone.
      const host = canonicalizeHost(info.address.replace(/%.*$/, ""));
      if (host && host.kind !== "domain")
        prefixes.push({
          address: host.key,
          prefixLength: host.kind === "ipv4" ? 32 : 128,
          family: host.kind,
        });
    }
  }
  return prefixes;
}

function matcher(prefixes: readonly LocalPrefix[]): HostAddresses {
  const list = new BlockList();
  for (const { address, prefixLength, family } of prefixes) {
    try {
      list.addSubnet(address, prefixLength, family);
    } catch {
      // A line the kernel's format did not lead us to expect: skipped, the rest still counts.
    }
  }
  return {
    has: (key) => {
      const host = canonicalizeHost(key);
      return host !== null && host.kind !== "domain" && list.check(host.key, host.kind);
    },
  };
}

let inFlight: Promise<HostAddresses> | null = null;

/**
 * The addresses the kernel would deliver to this host (the proxy's network namespace): each IPv4
 * `local` route of the tables every packet is looked up in (`/proc/net/fib_trie`), each IPv6 one
 * of the `local` table (`/proc/net/ipv6_route`; one added to `main` is not read), not a policy
 * table's (local-routes.ts), every IPv6 address,
 * unicast (`/proc/net/if_inet6`) and anycast (`/proc/net/anycast6`), and the interfaces
 * `os.networkInterfaces()` lists. The latter alone misses an address on an interface that is
 * down or has no carrier (a `docker0` before its first container) and every address of a local
 * prefix (AnyIP), all of which the kernel still delivers here. Read anew for each lookup that
 * needs it, since DHCP, VPNs and containers change them while a proxy runs; lookups that need
 * it while a read is under way share that read, so a burst of connections costs one.
 */
export function hostLocalAddresses(): Promise<HostAddresses> {
  inFlight ??= readKernelLists()
    .then((kernel) => matcher([...kernel, ...interfacePrefixes()]))
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}
