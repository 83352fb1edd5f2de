import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyAddress } from "./address-class.js";
import { canonicalizeHost } from "./canonical-host.js";
import { buildNetworkPolicy } from "./network-policy.js";
import type { NetworkResolver, ResolvedAddress } from "./resolve-target.js";
import { decideNetworkTarget } from "./target-decision.js";

/** A resolver from a fixed table that records every name it is asked about. */
function tableResolver(table: Record<string, ResolvedAddress[]>) {
  const asked: string[] = [];
  const resolver: NetworkResolver = async (hostname) => {
    asked.push(hostname);
    const answer = table[hostname];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return answer;
  };
  return { resolver, asked };
}

function host(raw: string) {
  const canonical = canonicalizeHost(raw);
  if (!canonical) throw new Error(`bad test host ${raw}`);
  return canonical;
}

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

describe("decideNetworkTarget", () => {
  it("never resolves a hostname that no rule allows", async () => {
    const { resolver, asked } = tableResolver({});
    const policy = buildNetworkPolicy(["api.test"], []);
    await expect(decideNetworkTarget(policy, host("other.test"), 443, resolver)).resolves.toEqual({
      decision: "deny",
      reason: "not_allowlisted",
      failure: "policy",
    });
    await expect(decideNetworkTarget(policy, host("api.test"), 22, resolver)).resolves.toEqual({
      decision: "deny",
      reason: "port_not_allowed",
      failure: "policy",
    });
    expect(asked).toEqual([]);
  });

  it("resolves an allowed hostname once and pins its public addresses", async () => {
    const { resolver, asked } = tableResolver({
      "api.test": [v4("93.184.216.34"), v6("2606:2800:220:1::1")],
    });
    const policy = buildNetworkPolicy(["api.test"], []);
    await expect(decideNetworkTarget(policy, host("API.test."), 443, resolver)).resolves.toEqual({
      decision: "allow",
      reason: "allowlist",
      addresses: [v4("93.184.216.34"), v6("2606:2800:220:1::1")],
    });
    expect(asked).toEqual(["api.test"]);
  });

  it.each([
    ["127.0.0.1", "blocked_address_loopback"],
    ["::1", "blocked_address_loopback"],
    ["::ffff:127.0.0.1", "blocked_address_loopback"],
    ["10.0.0.7", "blocked_address_private"],
    ["192.168.0.10", "blocked_address_private"],
    ["fd00::7", "blocked_address_unique_local"],
    ["169.254.169.254", "blocked_address_link_local"],
    ["fe80::1", "blocked_address_link_local"],
    ["100.64.1.1", "blocked_address_cgnat"],
    ["224.0.0.251", "blocked_address_multicast"],
    ["0.0.0.0", "blocked_address_unspecified"],
    ["::", "blocked_address_unspecified"],
    ["bogus", "blocked_address_invalid"],
  ])("refuses an allowlisted hostname that resolves to %s", async (address, reason) => {
    const { resolver } = tableResolver({ "api.test": [{ address, family: address.includes(":") ? 6 : 4 }] });
    const policy = buildNetworkPolicy(["api.test:*"], []);
    await expect(decideNetworkTarget(policy, host("api.test"), 443, resolver)).resolves.toEqual({
      decision: "deny",
      reason,
      failure: "policy",
    });
  });

  it("refuses a hostname when any of its addresses is internal (rebinding mixtures)", async () => {
    const { resolver } = tableResolver({ "api.test": [v4("93.184.216.34"), v4("169.254.169.254")] });
    const policy = buildNetworkPolicy(["api.test"], []);
    await expect(decideNetworkTarget(policy, host("api.test"), 80, resolver)).resolves.toMatchObject({
      decision: "deny",
      reason: "blocked_address_link_local",
    });
  });

  it("allows an IP-literal rule to reach its own private address without resolving", async () => {
    const { resolver, asked } = tableResolver({});
    const policy = buildNetworkPolicy(["127.0.0.1:3000", "[::1]:3000", "10.0.0.5:5432"], []);
    await expect(decideNetworkTarget(policy, host("127.0.0.1"), 3000, resolver)).resolves.toEqual({
      decision: "allow",
      reason: "allowlist",
      addresses: [v4("127.0.0.1")],
    });
    await expect(decideNetworkTarget(policy, host("[0:0:0:0:0:0:0:1]"), 3000, resolver)).resolves.toEqual({
      decision: "allow",
      reason: "allowlist",
      addresses: [v6("::1")],
    });
    await expect(decideNetworkTarget(policy, host("10.0.0.5"), 5432, resolver)).resolves.toMatchObject({
      decision: "allow",
    });
    expect(asked).toEqual([]);
  });

  it("lets a trusted URL's hostname resolve to loopback", async () => {
    const { resolver } = tableResolver({ "control.test": [v4("127.0.0.1")] });
    const policy = buildNetworkPolicy([], ["http://control.test:3100/api"]);
    await expect(decideNetworkTarget(policy, host("control.test"), 3100, resolver)).resolves.toEqual({
      decision: "allow",
      reason: "trusted_url",
      addresses: [v4("127.0.0.1")],
    });
  });

  it("pins canonical addresses with their real family and drops answers that are not addresses", async () => {
    const { resolver } = tableResolver({
      "control.test": [v6("::ffff:127.0.0.1"), v4("0:0:0:0:0:0:0:1"), v4("not-an-address")],
      "junk.test": [v4("not-an-address")],
    });
    const policy = buildNetworkPolicy([], ["http://control.test:3100", "http://junk.test:3100"]);
    await expect(decideNetworkTarget(policy, host("control.test"), 3100, resolver)).resolves.toEqual({
      decision: "allow",
      reason: "trusted_url",
      addresses: [v4("127.0.0.1"), v6("::1")],
    });
    await expect(decideNetworkTarget(policy, host("junk.test"), 3100, resolver)).resolves.toEqual({
      decision: "deny",
      reason: "dns_lookup_failed",
      failure: "lookup",
    });
  });

  it("reports a failed or empty lookup as a lookup failure, not a policy denial", async () => {
    const policy = buildNetworkPolicy(["gone.test", "empty.test"], []);
    const { resolver } = tableResolver({ "empty.test": [] });
    for (const name of ["gone.test", "empty.test"]) {
      await expect(decideNetworkTarget(policy, host(name), 443, resolver)).resolves.toEqual({
        decision: "deny",
        reason: "dns_lookup_failed",
        failure: "lookup",
      });
    }
  });

  it("allows a hostname rule only when every resolved address is public", async () => {
    const policy = buildNetworkPolicy(["api.test:*"], []);
    const address = fc.oneof(
      fc.ipV4(),
      fc.ipV6(),
      fc.ipV4().map((v4) => `::ffff:${v4}`),
      fc.constantFrom("169.254.169.254", "10.0.0.1", "127.0.0.1", "::1", "fd00::1", "100.64.0.1", "8.8.8.8"),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(address, { minLength: 1, maxLength: 4 }), async (answers) => {
        const resolver: NetworkResolver = async () =>
          answers.map((a) => ({ address: a, family: a.includes(":") ? 6 : 4 }));
        const verdict = await decideNetworkTarget(policy, host("api.test"), 443, resolver);
        const allPublic = answers.every((a) => classifyAddress(a) === "public");
        expect(verdict.decision).toBe(allPublic ? "allow" : "deny");
        if (verdict.decision === "allow") {
          for (const { address: pinned } of verdict.addresses) expect(classifyAddress(pinned)).toBe("public");
        }
      }),
      { numRuns: 500 },
    );
  });
});
