import { describe, expect, it } from "vitest";
import { parseTrustedNetworkUrl, trustedUrlRule } from "./trusted-url.js";

describe("parseTrustedNetworkUrl", () => {
  it.each([
    ["http://127.0.0.1:3100/api/issues/issue-1", { hostname: "127.0.0.1", port: "3100" }],
    ["https://Paperclip.Example.com/api", { hostname: "paperclip.example.com", port: "443" }],
    ["http://paperclip.example.com", { hostname: "paperclip.example.com", port: "80" }],
    ["https://paperclip.example.com:443", { hostname: "paperclip.example.com", port: "443" }],
    ["http://[::1]:3100/", { hostname: "[::1]", port: "3100" }],
  ])("%s gives %j", (value, expected) => {
    expect(parseTrustedNetworkUrl(value)).toEqual(expected);
  });

  it.each([
    "ws://host",
    "file:///etc/passwd",
    "ftp://host",
    "host:3100",
    "not a url",
    "http://xn--zz.com/",
    "https://XN--ZZ.com:8443/",
    "",
    42,
    null,
    undefined,
  ])("%j gives null", (value) => {
    expect(parseTrustedNetworkUrl(value)).toBeNull();
  });
});

describe("trustedUrlRule", () => {
  it("opens exactly the origin's host and port", () => {
    expect(trustedUrlRule("https://control.test/api")).toEqual({
      host: { kind: "domain", key: "control.test" },
      ports: { kind: "exact", port: 443 },
      origin: "trusted_url",
    });
    expect(trustedUrlRule("http://[0:0:0:0:0:0:0:1]:3100")).toEqual({
      host: { kind: "ipv6", key: "::1" },
      ports: { kind: "exact", port: 3100 },
      origin: "trusted_url",
    });
  });

  it("is null when the URL is not HTTP(S)", () => {
    expect(trustedUrlRule("ws://control.test")).toBeNull();
  });
});
