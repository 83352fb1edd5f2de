import type { CanonicalHost } from "./canonical-host.js";
import type { NetworkPolicy } from "./network-policy.js";
import type { RuleOrigin } from "./network-rule.js";
import { type NetworkResolver, type ResolvedAddress, resolvePinnedTarget } from "./resolve-target.js";

export type TargetDecision =
  | {
      readonly decision: "allow";
      readonly reason: RuleOrigin;
      readonly addresses: readonly ResolvedAddress[];
    }
  /** `lookup` failures are the network's fault (502), `policy` ones the sandbox's (403). */
  | { readonly decision: "deny"; readonly reason: string; readonly failure: "policy" | "lookup" };

/**
 * The whole verdict on one target: rule match first (a hostname no rule names is
 * never resolved), then the single resolution and the private-address check.
 */
export async function decideNetworkTarget(
  policy: NetworkPolicy,
  host: CanonicalHost,
  port: number,
  resolver: NetworkResolver,
): Promise<TargetDecision> {
  const match = policy.match(host, port);
  if (!match.allowed) return { decision: "deny", reason: match.reason, failure: "policy" };
  const pinned = await resolvePinnedTarget(host, match.rule, resolver);
  if (!pinned.ok)
    return { decision: "deny", reason: pinned.reason, failure: pinned.denied ? "policy" : "lookup" };
  return { decision: "allow", reason: match.rule.origin, addresses: pinned.addresses };
}
