import { describe, expect, it } from "vitest";
import { canonicalizeHost } from "./canonical-host.js";
import { closingAwareDecide } from "./create-proxy-context.js";
import { buildNetworkPolicy } from "./network-policy.js";
import type { NetworkResolver } from "./resolve-target.js";

const policy = buildNetworkPolicy(["api.test"], []);
const apiTest = canonicalizeHost("api.test")!;

describe("closingAwareDecide", () => {
  it("passes the target decision through while the proxy is open", async () => {
    const resolver: NetworkResolver = async () => [{ address: "93.184.216.34", family: 4 }];
    const decide = closingAwareDecide(policy, resolver, () => false);
    expect(await decide(apiTest, 443)).toEqual({
      decision: "allow",
      reason: "allowlist",
      addresses: [{ address: "93.184.216.34", family: 4 }],
    });
    expect(await decide(canonicalizeHost("other.test")!, 443)).toMatchObject({ decision: "deny" });
  });

  it("denies a target whose lookup finished after close() began", async () => {
    let closing = false;
    const resolver: NetworkResolver = async () => {
      closing = true;
      return [{ address: "93.184.216.34", family: 4 }];
    };
    expect(await closingAwareDecide(policy, resolver, () => closing)(apiTest, 443)).toEqual({
      decision: "deny",
      reason: "proxy_closed",
      failure: "policy",
    });
  });
});
