import { Resolver } from "node:dns/promises";
import { readFileSync } from "node:fs";
import { hostsKey, parseHostsFile } from "./hosts-file.js";
import { DEFAULT_PROXY_LIMITS } from "./limits.js";
import { createLookupGate } from "./lookup-gate.js";
import type { NetworkResolver, ResolvedAddress } from "./resolve-target.js";

export interface RunResolverOptions {
  /** Timeout of one DNS query attempt, in milliseconds (c-ares doubles it on each retry). */
  readonly timeoutMs?: number | undefined;
  /** Attempts per name server before a name fails. */
  readonly tries?: number | undefined;
  /** Lookups of this proxy in flight at once; more wait their turn. */
  readonly maxConcurrentLookups?: number | undefined;
  readonly hostsPath?: string | undefined;
  /** Name servers (`ip` or `ip:port`); default those of `/etc/resolv.conf`. */
  readonly servers?: readonly string[] | undefined;
}

export interface RunResolver {
  readonly resolve: NetworkResolver;
  /** Cancels the queries still in flight (they fail, and their attempts are denied). */
  close(): void;
}

/**
 * The hosts table, read once, synchronously (a small file, microseconds), when the
 * proxy starts: before its run's program does. A network-only sandbox of a root runner
 * can replace the host's `/etc` (rename it, make another), so a table read later could
 * be one the program wrote (docs/adapter-utils/hardening.md).
 */
function readHostsTable(hostsPath: string): Map<string, ResolvedAddress[]> {
  try {
    return parseHostsFile(readFileSync(hostsPath, "utf8"));
  } catch {
    return new Map();
  }
}

/**
 * The name resolution of one proxy, so no run can starve another's. Node's
 * `dns.lookup` runs `getaddrinfo` on libuv's four-thread pool, shared by every
 * proxy of the process (and `fs`): one run asking for names whose name server
 * stays silent held all four threads, and another run's lookup of its own
 * trusted host waited behind them. Here a name is looked up in `/etc/hosts`
 * first (read here, as glibc's `files` source would answer), then
 * with the proxy's own c-ares channel (`dns.promises.Resolver`: sockets on the
 * event loop, no pool thread), with its own timeout and tries, A and AAAA at
 * once, and at most `maxConcurrentLookups` of this proxy at a time. Unlike
 * `getaddrinfo`, no search domains are appended: allowlist names are exact.
 * Both `/etc/hosts` and the channel's `/etc/resolv.conf` are read when the resolver
 * is made, with its proxy, before the run's program starts.
 */
export function createRunResolver(options: RunResolverOptions = {}): RunResolver {
  const hosts = readHostsTable(options.hostsPath ?? "/etc/hosts");
  const gate = createLookupGate(options.maxConcurrentLookups ?? DEFAULT_PROXY_LIMITS.maxConcurrentLookups);
  // Made now, not at the first lookup: c-ares reads /etc/resolv.conf as it starts.
  const channel = new Resolver({
    timeout: options.timeoutMs ?? DEFAULT_PROXY_LIMITS.dnsTimeoutMs,
    tries: options.tries ?? DEFAULT_PROXY_LIMITS.dnsTries,
  });
  if (options.servers) channel.setServers([...options.servers]);
  const queryDns = async (name: string): Promise<ResolvedAddress[]> => {
    const [v4, v6] = await Promise.allSettled([channel.resolve4(name), channel.resolve6(name)]);
    const addresses: ResolvedAddress[] = [
      ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    // An empty answer is a failed lookup to the caller; a failure of both queries keeps its reason.
    if (addresses.length === 0 && v4.status === "rejected" && v6.status === "rejected") throw v4.reason;
    return addresses;
  };
  return {
    resolve: async (hostname) => {
      const name = hostsKey(hostname);
      const fromHosts = hosts.get(name);
      if (fromHosts && fromHosts.length > 0) return fromHosts;
      return gate(() => queryDns(name));
    },
    close: () => channel.cancel(),
  };
}
