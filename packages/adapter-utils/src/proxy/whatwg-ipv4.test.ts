import { describe, expect, it } from "vitest";
import { endsInIpv4Number, parseWhatwgIpv4 } from "./whatwg-ipv4.js";

describe("endsInIpv4Number", () => {
  it.each([
    ["127.0.0.1", true],
    ["foo.123", true],
    ["foo.0x1f", true],
    ["foo.0x", true],
    ["1.2.3.4.", true],
    ["example.com", false],
    ["foo.0xg", false],
    ["123.foo", false],
    ["", false],
    [".", false],
  ])("%j is %s", (host, expected) => {
    expect(endsInIpv4Number(host)).toBe(expected);
  });
});

describe("parseWhatwgIpv4", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1"],
    ["127.0.0.1.", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["127.0.1", "127.0.0.1"],
    ["0x7f.0.0.1", "127.0.0.1"],
    ["0X7F.0.0.1", "127.0.0.1"],
    ["0177.0.0.01", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["0x", "0.0.0.0"],
    ["4294967295", "255.255.255.255"],
    ["169.254.43518", "169.254.169.254"],
  ])("%j is %s", (host, address) => {
    expect(parseWhatwgIpv4(host)).toBe(address);
  });

  it.each([
    "256.1.1.1",
    "1.2.3.4.5",
    "4294967296",
    "1.16777216",
    "foo.123",
    "08.1.1.1",
    "1..1",
    "0xg.1.1.1",
    "1.2.3.256",
  ])("rejects %j", (host) => {
    expect(parseWhatwgIpv4(host)).toBeNull();
  });
});
