import { parseAllowlistEntry } from "./allowlist-entry.js";

/**
 * Upstream's `parseLocalProcessNetworkAllowlist`: a non-array gives `[]`; each entry
 * becomes lowercase `host` or `host:port` (plus our `host:*`), or throws a coded error.
 */
export function parseLocalProcessNetworkAllowlist(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((entry: unknown, index) => parseAllowlistEntry(entry, index).normalized);
}
