import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyAddress } from "./address-class.js";

describe("classifyAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["::ffff:192.168.1.1", "private"],
    ["fc00::1", "unique_local"],
    ["fd12:3456::1", "unique_local"],
    ["169.254.169.254", "link_local"],
    ["::ffff:169.254.169.254", "link_local"],
    ["fe80::1", "link_local"],
    ["febf::1", "link_local"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["ff02::1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["::", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["192.0.2.1", "documentation"],
    ["2001:db8::1", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["240.0.0.1", "reserved"],
    ["2001::1", "reserved"],
    ["::1.2.3.4", "reserved"],
    ["fec0::1", "private"],
    ["64:ff9b::a00:1", "private"],
    ["64:ff9b::7f00:1", "loopback"],
    // Local-use NAT64: 127.0.0.1 through a /48 translator, 8.8.8.8 read as a /96.
    ["64:ff9b:1:7f00:0:100:808:808", "reserved"],
    ["64:ff9b:1::808:808", "reserved"],
    ["2002:a9fe:a9fe::1", "link_local"],
    // Outside global unicast (2000::/3), no internet address: SIIT's IPv4-translated
    // ::ffff:0:0:0/96 (127.0.0.1 through a stateless translator), the rest of ::/8, 4000::/2.
    ["::ffff:0:7f00:1", "reserved"],
    ["::ffff:0:a9fe:a9fe", "reserved"],
    ["1:2:3:4:5:6:7:8", "reserved"],
    ["4000::1", "reserved"],
    ["e000::1", "reserved"],
    ["not-an-ip", "invalid"],
    ["example.com", "invalid"],
  ])("%s is %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each([
    "1.1.1.1",
    "8.8.8.8",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "2606:4700::1111",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("%s is public", (address) => {
    expect(classifyAddress(address)).toBe("public");
  });

  it("classifies an IPv4-mapped address like its IPv4 address", () => {
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        expect(classifyAddress(`::ffff:${address}`)).toBe(classifyAddress(address));
      }),
    );
  });

  it("never calls any 10/8 or 127/8 address public", () => {
    fc.assert(
      fc.property(fc.constantFrom(10, 127), fc.nat(255), fc.nat(255), fc.nat(255), (a, b, c, d) => {
        expect(classifyAddress(`${a}.${b}.${c}.${d}`)).not.toBe("public");
      }),
    );
  });
});
