/**
 * The keys a `createos` environment config may carry, by who puts them there. The Paperclip
 * host (2026.916.1, `services/environment-runtime.js` and `environment-config.js`) passes the
 * whole sandbox config to every hook: its own run flags, and on execute, release and destroy
 * the lease metadata merged over the stored config. A hook must accept all of them.
 */

/** Keys this plugin reads (upstream's `apiUrl`…`timeoutMs` plus its own tuning keys). */
export const PLUGIN_KEYS = [
  "apiUrl",
  "apiKey",
  "shape",
  "rootfs",
  "region",
  "reuseLease",
  "timeoutMs",
  "requestsPerMinute",
  "burst",
  "reconnectAttempts",
  "heartbeatTimeoutMs",
  "requestTimeoutMs",
  "lifecycleTimeoutMs",
  "backoffBaseMs",
  "backoffCapMs",
] as const;

/** Run-behaviour flags the host owns and adds to the sandbox config (kept, not read). */
export const HOST_KEYS = [
  "provider",
  "archiveOnRelease",
  "streamRunLogs",
  "runnerLifecycleMode",
  "runnerIdleTimeoutMs",
  "bridgeRequestTimeoutMs",
] as const;

/**
 * Keys of the lease record the host merges into the config of later calls: this plugin's
 * lease metadata (`lease-metadata.ts`) and the host's own lease bookkeeping.
 */
export const LEASE_RECORD_KEYS = [
  "sandboxId",
  "companyId",
  "environmentId",
  "apiOrigin",
  "marker",
  "workspacePath",
  "agentId",
  "driver",
  "executionWorkspaceMode",
  "pluginId",
  "pluginKey",
  "providerMetadata",
  "remoteCwd",
  "shellCommand",
  "sandboxProviderPlugin",
  "sandboxLeaseAcquisition",
  "nativeHarnessBackup",
  "nativeWorkspaceSync",
  "reusableSandboxLease",
  "resumedLease",
  "expired",
] as const;

const TOLERATED = new Set<string>([...PLUGIN_KEYS, ...HOST_KEYS, ...LEASE_RECORD_KEYS]);

/** An unknown key: a likely misspelling of a known one (with the key meant), or a foreign key. */
export type UnknownKey =
  | { readonly key: string; readonly kind: "misspelt"; readonly meant: string }
  | { readonly key: string; readonly kind: "foreign" };

/** Edit distance counting a swap of two neighbouring letters as one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i += 1) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j += 1) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1] as number[];
      let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1);
      best = Math.min(best, (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row.push(best);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** The plugin key a key probably meant: same letters ignoring case, or at most two edits away. */
function meantKey(key: string): string | undefined {
  const lower = key.toLowerCase();
  let best: { key: string; distance: number } | undefined;
  for (const known of PLUGIN_KEYS) {
    const distance = editDistance(lower, known.toLowerCase());
    const limit = Math.min(2, Math.floor(known.length / 3));
    if (distance <= limit && (best === undefined || distance < best.distance)) {
      best = { key: known, distance };
    }
  }
  return best?.key;
}

/** The keys of a config that nobody known puts there, each classified. */
export function unknownKeys(config: Readonly<Record<string, unknown>>): UnknownKey[] {
  const found: UnknownKey[] = [];
  for (const key of Object.keys(config)) {
    if (TOLERATED.has(key)) continue;
    const meant = meantKey(key);
    found.push(meant === undefined ? { key, kind: "foreign" } : { key, kind: "misspelt", meant });
  }
  return found;
}

/** The host's keys present in a config, to hand back unchanged in a normalized config. */
export function hostOwnedEntries(config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of HOST_KEYS) {
    if (key !== "provider" && config[key] !== undefined) kept[key] = config[key];
  }
  return kept;
}
