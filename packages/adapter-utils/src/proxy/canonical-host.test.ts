import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalizeHost, formatCanonicalHost } from "./canonical-host.js";

describe("canonicalizeHost", () => {
  it.each([
    ["API.Example.COM", "domain", "api.example.com"],
    ["example.com.", "domain", "example.com"],
    ["bücher.de", "domain", "xn--bcher-kva.de"],
    ["BÜCHER.de.", "domain", "xn--bcher-kva.de"],
    ["xn--bcher-kva.de", "domain", "xn--bcher-kva.de"],
    ["foo_bar.internal", "domain", "foo_bar.internal"],
    ["127.0.0.1", "ipv4", "127.0.0.1"],
    ["127.1", "ipv4", "127.0.0.1"],
    ["0x7f.0.0.1", "ipv4", "127.0.0.1"],
    ["2130706433", "ipv4", "127.0.0.1"],
    ["[::1]", "ipv6", "::1"],
    ["::1", "ipv6", "::1"],
    ["[0:0:0:0:0:0:0:1]", "ipv6", "::1"],
    ["[2001:DB8:0:0:0:0:0:1]", "ipv6", "2001:db8::1"],
    ["[::ffff:127.0.0.1]", "ipv4", "127.0.0.1"],
    ["[::ffff:a9fe:a9fe]", "ipv4", "169.254.169.254"],
    ["faß.de", "domain", "xn--fa-hia.de"],
    ["ＥＸＡＭＰＬＥ。com", "domain", "example.com"],
    ["xn--ls8h.la", "domain", "xn--ls8h.la"],
    ["１２７.0.0.1", "ipv4", "127.0.0.1"],
    ["127.0.0.1.", "ipv4", "127.0.0.1"],
  ])("%s is %s %s", (raw, kind, key) => {
    expect(canonicalizeHost(raw)).toEqual({ kind, key });
  });

  it.each([
    "",
    ".",
    "a..b",
    ".example.com",
    "example.com..",
    "exa mple.com",
    "ex%41mple.com",
    "user@host",
    "host/path",
    "host:80",
    "*.example.com",
    "[127.0.0.1]",
    "[fe80::1%eth0]",
    "fe80::1%eth0",
    "[::1",
    "256.1.1.1",
    "1.2.3.4.5",
    "foo.123",
    "xn--zz.com",
    "XN--ZZ.com",
    "xn--a.com",
    "xn--.com",
    "a\u200db.com",
    "０x100.0.0.1",
    "a".repeat(254),
  ])("rejects %j", (raw) => {
    expect(canonicalizeHost(raw)).toBeNull();
  });

  it("takes an ASCII host up to a domain's length with its trailing dot, and nothing longer", () => {
    const domain = `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`;
    expect(domain).toHaveLength(253);
    expect(canonicalizeHost(`${domain}.`)).toEqual({ kind: "domain", key: domain });
    expect(canonicalizeHost(`${domain}.x`)).toBeNull();
    // Leading zeros are the only way an IPv4 spelling gets this long; past the bound it is refused too.
    expect(canonicalizeHost(`0x${"0".repeat(244)}7f000001`)).toEqual({ kind: "ipv4", key: "127.0.0.1" });
    expect(canonicalizeHost(`0x${"0".repeat(245)}7f000001`)).toBeNull();
    expect(canonicalizeHost(`xn--${"a".repeat(15_000)}`)).toBeNull();
  });

  it("gives every IPv4 address its dotted-quad form, also through IPv4-mapped IPv6", () => {
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        const dotted = address
          .split(".")
          .map((part) => String(Number(part)))
          .join(".");
        expect(canonicalizeHost(address)).toEqual({ kind: "ipv4", key: dotted });
        expect(canonicalizeHost(`[::ffff:${address}]`)).toEqual({ kind: "ipv4", key: dotted });
      }),
    );
  });

  it("is idempotent on whatever it accepts", () => {
    fc.assert(
      fc.property(fc.oneof(fc.domain(), fc.ipV4(), fc.ipV6(), fc.string()), (raw) => {
        const host = canonicalizeHost(raw);
        if (host) expect(canonicalizeHost(formatCanonicalHost(host))).toEqual(host);
      }),
    );
  });

  it("brackets only IPv6 when formatting", () => {
    expect(formatCanonicalHost({ kind: "ipv6", key: "::1" })).toBe("[::1]");
    expect(formatCanonicalHost({ kind: "ipv4", key: "10.0.0.1" })).toBe("10.0.0.1");
    expect(formatCanonicalHost({ kind: "domain", key: "a.test" })).toBe("a.test");
  });
});
