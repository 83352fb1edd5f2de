import { PaperclipError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { canonicalizeHost } from "./canonical-host.js";
import { buildNetworkPolicy } from "./network-policy.js";

function match(allowlist: string[], trusted: string[], host: string, port: number) {
  const canonical = canonicalizeHost(host);
  if (!canonical) throw new Error(`bad test host ${host}`);
  const result = buildNetworkPolicy(allowlist, trusted).match(canonical, port);
  return result.allowed ? result.rule.origin : result.reason;
}

describe("buildNetworkPolicy", () => {
  it("opens ports 80 and 443 only for a hostname-only rule", () => {
    expect(match(["api.test"], [], "api.test", 443)).toBe("allowlist");
    expect(match(["api.test"], [], "api.test", 80)).toBe("allowlist");
    expect(match(["api.test"], [], "api.test", 22)).toBe("port_not_allowed");
    expect(match(["api.test"], [], "api.test", 8443)).toBe("port_not_allowed");
  });

  it("opens exactly the port of a host:port rule", () => {
    expect(match(["api.test:8443"], [], "api.test", 8443)).toBe("allowlist");
    expect(match(["api.test:8443"], [], "api.test", 443)).toBe("port_not_allowed");
    expect(match(["api.test:443"], [], "api.test", 80)).toBe("port_not_allowed");
  });

  it("opens every port of a host:* rule", () => {
    for (const port of [1, 22, 80, 5432, 65535])
      expect(match(["db.test:*"], [], "db.test", port)).toBe("allowlist");
  });

  it("matches hosts canonically: case, trailing dot, IDN, IP forms", () => {
    expect(match(["API.test"], [], "api.TEST.", 443)).toBe("allowlist");
    expect(match(["bücher.de"], [], "xn--bcher-kva.de", 443)).toBe("allowlist");
    expect(match(["xn--bcher-kva.de"], [], "BÜCHER.de", 443)).toBe("allowlist");
    expect(match(["[::1]:8080"], [], "0:0:0:0:0:0:0:1", 8080)).toBe("allowlist");
    expect(match(["127.0.0.1:3000"], [], "[::ffff:127.0.0.1]", 3000)).toBe("allowlist");
    expect(match(["127.0.0.1:3000"], [], "127.1", 3000)).toBe("allowlist");
  });

  it("matches exact hostnames only", () => {
    expect(match(["example.com"], [], "api.example.com", 443)).toBe("not_allowlisted");
    expect(match(["api.example.com"], [], "example.com", 443)).toBe("not_allowlisted");
    expect(match(["api.example.com"], [], "api.example.com.evil.test", 443)).toBe("not_allowlisted");
  });

  it("allows a trusted URL's origin host and port only, and prefers it over an allowlist rule", () => {
    expect(match([], ["http://127.0.0.1:3100/api/x"], "127.0.0.1", 3100)).toBe("trusted_url");
    expect(match([], ["http://127.0.0.1:3100/api/x"], "127.0.0.1", 3101)).toBe("port_not_allowed");
    expect(match(["control.test"], ["https://control.test/"], "control.test", 443)).toBe("trusted_url");
    expect(match(["control.test"], ["https://control.test/"], "control.test", 80)).toBe("allowlist");
  });

  it("ignores trusted URLs that are not HTTP(S) but still parses every allowlist entry", () => {
    expect(buildNetworkPolicy(["a.test"], ["ws://x", "nonsense", 7]).rules).toHaveLength(1);
    expect(() => buildNetworkPolicy(["a.test", "*.b.test"], [])).toThrow(
      "networkAllowlist[1] must use an exact hostname; wildcards are not supported.",
    );
  });

  it("refuses a policy without any rule", () => {
    for (const [allowlist, trusted] of [
      [[], []],
      [[], ["ws://control.test", "file:///x"]],
      // What a JavaScript caller may pass: a missing or non-array list counts as empty.
      [undefined, undefined],
      ["a.test", { url: "https://control.test" }],
    ] as const) {
      let error: unknown;
      try {
        buildNetworkPolicy(allowlist, trusted);
      } catch (caught) {
        error = caught;
      }
      expect(PaperclipError.is(error, "ERR_SANDBOX_NETWORK_ALLOWLIST_EMPTY")).toBe(true);
      expect((error as Error).message).toBe(
        'networkScope="allowlist" requires at least one valid networkAllowlist hostname or HTTP(S) networkTrustedUrl.',
      );
    }
  });
});
