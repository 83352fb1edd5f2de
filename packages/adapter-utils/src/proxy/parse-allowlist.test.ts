import { PaperclipError } from "@paperclipai/errors";
import { caughtSync as thrown } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { parseAllowlistEntry } from "./allowlist-entry.js";
import { parseLocalProcessNetworkAllowlist } from "./parse-allowlist.js";

describe("parseLocalProcessNetworkAllowlist", () => {
  it("normalises upstream's example", () => {
    expect(
      parseLocalProcessNetworkAllowlist(["api.openai.com", "https://api.anthropic.com", "gateway.test:8443"]),
    ).toEqual(["api.openai.com", "api.anthropic.com", "gateway.test:8443"]);
  });

  it("returns [] for anything that is not an array", () => {
    for (const value of [undefined, null, "api.openai.com", 1, { 0: "a" }]) {
      expect(parseLocalProcessNetworkAllowlist(value)).toEqual([]);
    }
  });

  it.each([
    ["  API.OpenAI.com  ", "api.openai.com"],
    ["gateway.test:443", "gateway.test"],
    ["http://gateway.test:80/", "gateway.test"],
    ["http://gateway.test:443", "gateway.test:443"],
    ["https://gateway.test:80", "gateway.test:80"],
    ["gateway.test:08443", "gateway.test:8443"],
    ["gateway.test:", "gateway.test"],
    ["gateway.test:*", "gateway.test:*"],
    ["example.com.", "example.com"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["[::1]:8080", "[::1]:8080"],
    ["[0:0:0:0:0:0:0:1]", "[::1]"],
    ["::1", "[::1]"],
    // A bare IPv6 address is read as an address; a port needs brackets.
    ["::1:8080", "[::1:8080]"],
    ["127.1:3000", "127.0.0.1:3000"],
    ["[::ffff:127.0.0.1]:3000", "127.0.0.1:3000"],
    ["ws://socket.test:9000", "socket.test:9000"],
  ])("%j becomes %j", (entry, normalized) => {
    expect(parseLocalProcessNetworkAllowlist([entry])).toEqual([normalized]);
  });

  it("rejects a non-string entry with its index", () => {
    const error = thrown(() => parseLocalProcessNetworkAllowlist(["a.test", 443]));
    expect(PaperclipError.is(error, "ERR_SANDBOX_NETWORK_ALLOWLIST_ENTRY_TYPE")).toBe(true);
    expect((error as Error).message).toBe("networkAllowlist[1] must be a string.");
    expect((error as PaperclipError).details).toEqual({ index: 1, type: "number" });
  });

  it.each(["", "   ", "\t\n"])("rejects the empty entry %j", (entry) => {
    const error = thrown(() => parseLocalProcessNetworkAllowlist([entry]));
    expect(PaperclipError.is(error, "ERR_SANDBOX_NETWORK_ALLOWLIST_ENTRY_EMPTY")).toBe(true);
    expect((error as Error).message).toBe("networkAllowlist[0] must not be empty.");
  });

  it.each([
    "https://api.example.com/v1",
    "https://user:pass@api.example.com",
    "token@api.example.com",
    "api.example.com?x=1",
    "api.example.com#frag",
    "api.example.com/",
    "https://",
    ":8080",
    "host:0",
    "host:65536",
    "host:-1",
    "host:+80",
    "host:0x50",
    "host:80:90",
    "2001:db8::1:80:90:1:2:3",
    "[::1]x",
    "[::1",
    "[not-ipv6]:80",
    "1http://host",
    "exa mple.com",
    "a..b",
    "back\\slash.com",
  ])("rejects %j as not a hostname, hostname:port or origin", (entry) => {
    const error = thrown(() => parseLocalProcessNetworkAllowlist(["ok.test", entry]));
    expect(PaperclipError.is(error, "ERR_SANDBOX_NETWORK_ALLOWLIST_ENTRY_FORMAT")).toBe(true);
    expect((error as Error).message).toBe(
      "networkAllowlist[1] must be a hostname, hostname:port, or origin URL.",
    );
  });

  it.each(["*", "*.example.com", "api.*.example.com", "https://*.example.com", "*:443"])(
    "rejects the wildcard %j",
    (entry) => {
      const error = thrown(() => parseLocalProcessNetworkAllowlist([entry]));
      expect(PaperclipError.is(error, "ERR_SANDBOX_NETWORK_ALLOWLIST_ENTRY_WILDCARD")).toBe(true);
      expect((error as Error).message).toBe(
        "networkAllowlist[0] must use an exact hostname; wildcards are not supported.",
      );
    },
  );
});

describe("parseAllowlistEntry rules", () => {
  it.each([
    ["api.test", { kind: "web" }],
    ["https://api.test", { kind: "web" }],
    ["api.test:443", { kind: "exact", port: 443 }],
    ["api.test:8443", { kind: "exact", port: 8443 }],
    ["api.test:*", { kind: "any" }],
    ["https://api.test:*", { kind: "any" }],
  ])("%j opens %j", (entry, ports) => {
    expect(parseAllowlistEntry(entry, 0).rule).toEqual({
      host: { kind: "domain", key: "api.test" },
      ports,
      origin: "allowlist",
    });
  });
});
