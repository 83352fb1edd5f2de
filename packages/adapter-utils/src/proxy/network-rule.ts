import type { CanonicalHost } from "./canonical-host.js";

/**
 * Which ports a rule opens. A bare hostname opens the two web ports only, so
 * allowing `api.example.com` does not also open its SSH or database ports.
 */
export type RulePorts =
  | { readonly kind: "web" }
  | { readonly kind: "any" }
  | { readonly kind: "exact"; readonly port: number };

/** Where a rule came from; trusted URLs skip the private-address check (the control plane is often local). */
export type RuleOrigin = "allowlist" | "trusted_url";

export interface NetworkRule {
  readonly host: CanonicalHost;
  readonly ports: RulePorts;
  readonly origin: RuleOrigin;
}

const WEB_PORTS: ReadonlySet<number> = new Set([80, 443]);

export function ruleAllowsPort(rule: NetworkRule, port: number): boolean {
  switch (rule.ports.kind) {
    case "any":
      return true;
    case "web":
      return WEB_PORTS.has(port);
    case "exact":
      return rule.ports.port === port;
  }
}

/** A TCP port as the proxy accepts it: plain decimal digits, 1-65535. */
export function parsePortNumber(text: string): number | null {
  if (!/^[0-9]{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65_535 ? port : null;
}
