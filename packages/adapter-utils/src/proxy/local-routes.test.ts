import { describe, expect, it } from "vitest";
import { parseFibTrieLocal, parseIfInet6, parseIpv6RouteLocal } from "./local-routes.js";

// Excerpts of the kernel's own files, from a namespace with `ip route add local 9.9.8.0/24 dev lo`,
// `ip -6 route add local 2a00:2::/64 dev lo` and an address on an interface that is down.
const FIB_TRIE = `Main:
  +-- 0.0.0.0/0 3 0 5
     |-- 0.0.0.0
        /0 universe UNICAST
     +-- 9.9.8.0/23 2 0 2
        |-- 9.9.8.0
           /24 host LOCAL
        |-- 9.9.9.2
           /32 host LOCAL
     +-- 192.0.2.0/24 2 0 2
           |-- 192.0.2.0
              /24 link UNICAST
        |-- 192.0.2.255
           /32 link BROADCAST
`;
const IPV6_ROUTE = `fd000000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0
00000000000000000000000000000001 80 00000000000000000000000000000000 00 00000000000000000000000000000000 00000000 00000003 00000000 80200001       lo
2a000002000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000400 00000002 00000000 80000001       lo
`;
const IF_INET6 = `00000000000000000000000000000001 01 80 10 80       lo
2a000001000000000000000000000001 06 80 00 c0     tap1
`;

describe("the kernel's lists of local addresses", () => {
  it("reads the LOCAL entries of fib_trie with their prefix lengths, nothing else", () => {
    expect(parseFibTrieLocal(FIB_TRIE)).toEqual([
      { address: "9.9.8.0", prefixLength: 24, family: "ipv4" },
      { address: "9.9.9.2", prefixLength: 32, family: "ipv4" },
    ]);
  });

  it("reads the routes flagged RTF_LOCAL of ipv6_route, local prefixes included", () => {
    expect(parseIpv6RouteLocal(IPV6_ROUTE)).toEqual([
      { address: "0000:0000:0000:0000:0000:0000:0000:0001", prefixLength: 128, family: "ipv6" },
      { address: "2a00:0002:0000:0000:0000:0000:0000:0000", prefixLength: 64, family: "ipv6" },
    ]);
  });

  it("reads every address of if_inet6, whatever its state", () => {
    expect(parseIfInet6(IF_INET6).map((prefix) => prefix.address)).toEqual([
      "0000:0000:0000:0000:0000:0000:0000:0001",
      "2a00:0001:0000:0000:0000:0000:0000:0001",
    ]);
  });
});
