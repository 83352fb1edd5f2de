import { isIPv6 } from "node:net";
import { SandboxError } from "@paperclipai/errors";
import { type CanonicalHost, canonicalizeHost, formatCanonicalHost } from "./canonical-host.js";
import { type NetworkRule, parsePortNumber, type RulePorts } from "./network-rule.js";

/** Default ports of the schemes WHATWG URL knows; upstream's normalised form omits them. */
const SCHEME_DEFAULT_PORTS: Readonly<Record<string, number>> = {
  http: 80,
  https: 443,
  ws: 80,
  wss: 443,
  ftp: 21,
};
const SCHEME = /^[a-z][a-z0-9+.-]*$/;

export interface ParsedAllowlistEntry {
  readonly rule: NetworkRule;
  /** Upstream's normalised string: `host` or `host:port` (the scheme's default port omitted), or `host:*`. */
  readonly normalized: string;
}

function formatError(index: number): SandboxError {
  return new SandboxError(
    "ERR_SANDBOX_NETWORK_ALLOWLIST_ENTRY_FORMAT",
    `networkAllowlist[${index}] must be a hostname, hostname:port, or origin URL.`,
    { details: { index } },
  );
}

function splitAuthority(authority: string): { host: string; port: string | null } | null {
  if (authority.startsWith("[")) {
    const close = authority.indexOf("]");
    if (close === -1) return null;
    const rest = authority.slice(close + 1);
    if (rest !== "" && !rest.startsWith(":")) return null;
    return { host: authority.slice(0, close + 1), port: rest === "" ? null : rest.slice(1) };
  }
  const colon = authority.indexOf(":");
  if (colon === -1) return { host: authority, port: null };
  // A bare IPv6 address is accepted as a host; with a port it must be bracketed, or it is ambiguous.
  if (authority.indexOf(":", colon + 1) !== -1)
    return isIPv6(authority) ? { host: authority, port: null } : null;
  return { host: authority.slice(0, colon), port: authority.slice(colon + 1) };
}

function parsePorts(port: string | null): RulePorts | null {
  // `host:` (empty port) is what upstream's URL parsing reads as "no port".
  if (port === null || port === "") return { kind: "web" };
  if (port === "*") return { kind: "any" };
  const exact = parsePortNumber(port);
  return exact === null ? null : { kind: "exact", port: exact };
}

function normalizedForm(host: CanonicalHost, ports: RulePorts, defaultPort: number | null): string {
  const name = formatCanonicalHost(host);
  if (ports.kind === "any") return `${name}:*`;
  if (ports.kind === "exact" && ports.port !== defaultPort) return `${name}:${ports.port}`;
  return name;
}

/**
 * Parses one `networkAllowlist` entry: `host`, `host:port`, `host:*`, `[v6]`,
 * `[v6]:port` or an origin URL (`scheme://host[:port][/]`). Throws upstream's
 * messages, coded, for everything else.
 */
export function parseAllowlistEntry(entry: unknown, index: number): ParsedAllowlistEntry {
  if (typeof entry !== "string") {
    throw new SandboxError(
      "ERR_SANDBOX_NETWORK_ALLOWLIST_ENTRY_TYPE",
      `networkAllowlist[${index}] must be a string.`,
      { details: { index, type: entry === null ? "null" : typeof entry } },
    );
  }
  const trimmed = entry.trim();
  if (!trimmed) {
    throw new SandboxError(
      "ERR_SANDBOX_NETWORK_ALLOWLIST_ENTRY_EMPTY",
      `networkAllowlist[${index}] must not be empty.`,
      {
        details: { index },
      },
    );
  }
  let authority = trimmed;
  // Without a scheme upstream parses the entry as https, so :443 is its default port.
  let defaultPort: number | null = 443;
  const schemeEnd = trimmed.indexOf("://");
  if (schemeEnd !== -1) {
    const scheme = trimmed.slice(0, schemeEnd).toLowerCase();
    if (!SCHEME.test(scheme)) throw formatError(index);
    defaultPort = SCHEME_DEFAULT_PORTS[scheme] ?? null;
    authority = trimmed.slice(schemeEnd + 3);
    if (authority.endsWith("/")) authority = authority.slice(0, -1);
  }
  if (/[/?#@\\\s]/.test(authority)) throw formatError(index);
  const parts = splitAuthority(authority);
  if (!parts) throw formatError(index);
  if (parts.host.includes("*")) {
    throw new SandboxError(
      "ERR_SANDBOX_NETWORK_ALLOWLIST_ENTRY_WILDCARD",
      `networkAllowlist[${index}] must use an exact hostname; wildcards are not supported.`,
      { details: { index } },
    );
  }
  const host = canonicalizeHost(parts.host);
  const ports = parsePorts(parts.port);
  if (!host || !ports) throw formatError(index);
  return { rule: { host, ports, origin: "allowlist" }, normalized: normalizedForm(host, ports, defaultPort) };
}
