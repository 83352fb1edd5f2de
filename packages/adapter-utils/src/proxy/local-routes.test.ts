import { describe, expect, it } from "vitest";
import { parseAnycast6, parseFibTrieLocal, parseIfInet6, parseIpv6RouteLocal } from "./local-routes.js";

// The kernel's own files (6.18), from a private network namespace set up as a host behind a
// transparent proxy (Clash/mihomo, v2ray, Envoy, Cilium TPROXY) and forwarding IPv6:
//   sysctl -w net.ipv6.conf.all.forwarding=1
//   ip addr add 9.9.9.1/32 dev pcv0; ip -6 addr add 2a00:1::3/64 dev pcv0 nodad (a veth, up)
//   ip route add local 9.9.8.0/24 dev lo; ip -6 route add local 2a00:2::/64 dev lo (AnyIP)
//   ip route add local 9.9.7.0/24 dev lo table main
//   ip rule add fwmark 1 lookup 100; ip -6 rule add fwmark 1 lookup 100
//   ip route add local 0.0.0.0/0 dev lo table 100; ip route add local 9.9.6.0/24 dev lo table 100
//   ip -6 route add local ::/0 dev lo table 100; ip -6 route add local 2a00:6::/64 dev lo table 100
//   ip -6 route add local 2a00:7::/64 dev lo table 511 (the local table's hash bucket)
const FIB_TRIE_POLICY = `Id 100:
  +-- 0.0.0.0/4 2 0 2
     |-- 0.0.0.0
        /0 host LOCAL
     |-- 9.9.6.0
        /24 host LOCAL
Main:
  |-- 9.9.7.0
     /24 host LOCAL
Local:
  +-- 0.0.0.0/1 2 0 2
     +-- 9.9.8.0/23 2 0 2
        |-- 9.9.8.0
           /24 host LOCAL
        |-- 9.9.9.1
           /32 host LOCAL
     +-- 127.0.0.0/8 2 0 2
        +-- 127.0.0.0/31 1 0 0
           |-- 127.0.0.0
              /8 host LOCAL
           |-- 127.0.0.1
              /32 host LOCAL
        |-- 127.255.255.255
           /32 link BROADCAST
`;
const IPV6_ROUTE_POLICY = `2a000006000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 00000000 80000001       lo
00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 00000000 80000001       lo
2a000001000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     pcv0
fe800000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     pcv1
fe800000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     pcv0
00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
2a000007000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 00000000 80000001       lo
00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
00000000000000000000000000000001 80 00000000000000000000000000000000 00 00000000000000000000000000000000 00000000 00000003 00000000 80200001       lo
2a000001000000000000000000000000 80 00000000000000000000000000000000 00 00000000000000000000000000000000 00000000 00000003 00000000 00300001     pcv0
2a000001000000000000000000000003 80 00000000000000000000000000000000 00 00000000000000000000000000000000 00000000 00000004 00000000 80200001     pcv0
2a000002000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000001 00000000 80000001       lo
ff000000000000000000000000000000 08 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     pcv1
ff000000000000000000000000000000 08 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     pcv0
00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
`;
const ANYCAST6 = `3    pcv0            2a000001000000000000000000000000     1
`;

// Without any policy rule the kernel keeps `local` merged into `main` and prints that one trie
// under both names; a table no rule names (`ip route add local 0.0.0.0/0 dev lo table 100`) is
// still listed. From a namespace with that and `ip route add local 9.9.8.0/24 dev lo`.
const FIB_TRIE_MERGED = `Id 100:
  |-- 0.0.0.0
     /0 host LOCAL
Main:
  +-- 0.0.0.0/1 2 0 2
     |-- 9.9.8.0
        /24 host LOCAL
     +-- 127.0.0.0/8 2 0 2
        +-- 127.0.0.0/31 1 0 0
           |-- 127.0.0.0
              /8 host LOCAL
           |-- 127.0.0.1
              /32 host LOCAL
        |-- 127.255.255.255
           /32 link BROADCAST
Local:
  +-- 0.0.0.0/1 2 0 2
     |-- 9.9.8.0
        /24 host LOCAL
     +-- 127.0.0.0/8 2 0 2
        +-- 127.0.0.0/31 1 0 0
           |-- 127.0.0.0
              /8 host LOCAL
           |-- 127.0.0.1
              /32 host LOCAL
        |-- 127.255.255.255
           /32 link BROADCAST
`;

// An address on an interface that is down is in if_inet6 though it has no route yet.
const IF_INET6 = `00000000000000000000000000000001 01 80 10 80       lo
2a000001000000000000000000000001 06 80 00 c0     tap1
`;

const v4 = (address: string, prefixLength: number) => ({ address, prefixLength, family: "ipv4" });
const v6 = (address: string, prefixLength: number) => ({ address, prefixLength, family: "ipv6" });

describe("the kernel's lists of local addresses", () => {
  it("reads the LOCAL entries of fib_trie's local and main tables, never a policy table's", () => {
    expect(parseFibTrieLocal(FIB_TRIE_POLICY)).toEqual([
      v4("9.9.7.0", 24),
      v4("9.9.8.0", 24),
      v4("9.9.9.1", 32),
      v4("127.0.0.0", 8),
      v4("127.0.0.1", 32),
    ]);
  });

  it("reads the merged local and main trie, and skips a table no rule names", () => {
    const once = [v4("9.9.8.0", 24), v4("127.0.0.0", 8), v4("127.0.0.1", 32)];
    expect(parseFibTrieLocal(FIB_TRIE_MERGED)).toEqual([...once, ...once]);
  });

  it("never takes a local prefix shorter than /8 as the host's, even in the local table", () => {
    const catchAll = FIB_TRIE_MERGED.replace("Local:\n", "Local:\n  |-- 0.0.0.0\n     /0 host LOCAL\n");
    expect(parseFibTrieLocal(catchAll)).toEqual(parseFibTrieLocal(FIB_TRIE_MERGED));
    expect(parseFibTrieLocal("Local:\n  |-- 8.0.0.0\n     /7 host LOCAL\n")).toEqual([]);
  });

  it("reads the RTF_LOCAL routes of ipv6_route's last table, the local one: no policy table's ::/0", () => {
    expect(parseIpv6RouteLocal(IPV6_ROUTE_POLICY)).toEqual([
      v6("0000:0000:0000:0000:0000:0000:0000:0001", 128),
      v6("2a00:0001:0000:0000:0000:0000:0000:0003", 128),
      v6("2a00:0002:0000:0000:0000:0000:0000:0000", 64),
    ]);
  });

  it("never takes a local ::/0 as the host's, even as the only table", () => {
    const onlyCatchAll = IPV6_ROUTE_POLICY.split("\n")[1]!;
    expect(parseIpv6RouteLocal(`${onlyCatchAll}\n`)).toEqual([]);
  });

  it("reads every address of if_inet6, whatever its state", () => {
    expect(parseIfInet6(IF_INET6).map((prefix) => prefix.address)).toEqual([
      "0000:0000:0000:0000:0000:0000:0000:0001",
      "2a00:0001:0000:0000:0000:0000:0000:0001",
    ]);
  });

  it("reads every anycast address of anycast6 (a forwarding host's subnet-router anycast)", () => {
    expect(parseAnycast6(ANYCAST6)).toEqual([v6("2a00:0001:0000:0000:0000:0000:0000:0000", 128)]);
  });
});
