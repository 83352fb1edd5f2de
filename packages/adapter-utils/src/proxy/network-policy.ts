import { SandboxError } from "@paperclipai/errors";
import { parseAllowlistEntry } from "./allowlist-entry.js";
import type { CanonicalHost } from "./canonical-host.js";
import { type NetworkRule, ruleAllowsPort } from "./network-rule.js";
import { trustedUrlRule } from "./trusted-url.js";

export type PolicyMatch =
  | { readonly allowed: true; readonly rule: NetworkRule }
  | { readonly allowed: false; readonly reason: "not_allowlisted" | "port_not_allowed" };

export interface NetworkPolicy {
  readonly rules: readonly NetworkRule[];
  match(host: CanonicalHost, port: number): PolicyMatch;
}

/**
 * Compiles `networkAllowlist` and `networkTrustedUrls` into a policy, with upstream's
 * validation: a list that is not an array counts as empty (as upstream's option parsers
 * read it), every allowlist entry must parse, trusted URLs that are not HTTP(S) are
 * ignored, and at least one rule must remain.
 */
export function buildNetworkPolicy(allowlistValue: unknown, trustedUrlsValue: unknown): NetworkPolicy {
  const allowlist: readonly unknown[] = Array.isArray(allowlistValue) ? allowlistValue : [];
  const trustedUrls: readonly unknown[] = Array.isArray(trustedUrlsValue) ? trustedUrlsValue : [];
  const rules: NetworkRule[] = allowlist.map((entry, index) => parseAllowlistEntry(entry, index).rule);
  for (const url of trustedUrls) {
    const rule = trustedUrlRule(url);
    if (rule) rules.push(rule);
  }
  if (rules.length === 0) {
    throw new SandboxError(
      "ERR_SANDBOX_NETWORK_ALLOWLIST_EMPTY",
      'networkScope="allowlist" requires at least one valid networkAllowlist hostname or HTTP(S) networkTrustedUrl.',
      { details: { allowlistEntries: allowlist.length, trustedUrls: trustedUrls.length } },
    );
  }
  const byHost = new Map<string, NetworkRule[]>();
  for (const rule of rules) {
    const list = byHost.get(rule.host.key);
    if (list) list.push(rule);
    else byHost.set(rule.host.key, [rule]);
  }
  return {
    rules,
    match(host, port) {
      const candidates = byHost.get(host.key);
      if (!candidates) return { allowed: false, reason: "not_allowlisted" };
      let found: NetworkRule | undefined;
      for (const rule of candidates) {
        if (!ruleAllowsPort(rule, port)) continue;
        // A trusted URL wins over an allowlist rule for the same target: it skips the address check.
        if (rule.origin === "trusted_url") return { allowed: true, rule };
        found ??= rule;
      }
      return found ? { allowed: true, rule: found } : { allowed: false, reason: "port_not_allowed" };
    },
  };
}
