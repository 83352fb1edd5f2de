/**
 * Variables that change how Node itself starts but mean nothing to the bridge.
 * `NODE_EXTRA_CA_CERTS` is parsed at every Node start (on a host whose bundle
 * holds the full system store that is about 40 ms, more than half the
 * bridge's start); `NODE_OPTIONS` could load user hooks (`--require`) or an
 * inspector port into the bridge instead of the program; `NODE_USE_ENV_PROXY`
 * (set by the allowlist for the program's own fetch) made Node 22 print its
 * "EnvHttpProxyAgent is experimental" warning from the bridge, on the program's
 * stderr, where the program wrote no such line.
 */
export const BRIDGE_DEFERRED_ENV_KEYS: readonly string[] = [
  "NODE_EXTRA_CA_CERTS",
  "NODE_OPTIONS",
  "NODE_USE_ENV_PROXY",
];

/** The bridge's env carries each deferred variable under this prefix and restores it for the program. */
export const BRIDGE_DEFERRED_ENV_PREFIX = "PAPERCLIP_SANDBOX_BRIDGE_DEFERRED_";

/**
 * The env to start the bridge with: each deferred variable moved under the
 * carrier prefix, so Node starts the bridge without it while the program,
 * which the bridge starts with the variables restored, gets the exact value.
 */
export function deferBridgeEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const result: Record<string, string> = { ...env };
  for (const key of BRIDGE_DEFERRED_ENV_KEYS) {
    delete result[`${BRIDGE_DEFERRED_ENV_PREFIX}${key}`];
    const value = result[key];
    if (value === undefined) continue;
    delete result[key];
    result[`${BRIDGE_DEFERRED_ENV_PREFIX}${key}`] = value;
  }
  return result;
}

/**
 * The inverse, run by the bridge for the program's env: each carried variable back
 * under its own name, exactly as the caller gave it, and the carrier gone.
 */
export function restoreDeferredEnv(env: Readonly<NodeJS.ProcessEnv>): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = { ...env };
  for (const key of BRIDGE_DEFERRED_ENV_KEYS) {
    const carrier = `${BRIDGE_DEFERRED_ENV_PREFIX}${key}`;
    if (!(carrier in result)) continue;
    result[key] = result[carrier];
    delete result[carrier];
  }
  return result;
}

/**
 * Env changes (a key with `undefined` deletes) as a spawn target hands them to its caller, with
 * each deferred variable they set moved under the carrier prefix: the bridge starts without it
 * and restores it for the program.
 */
export function deferBridgeEnvChanges(
  changes: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  const result: Record<string, string | undefined> = { ...changes };
  for (const key of BRIDGE_DEFERRED_ENV_KEYS) {
    const value = result[key];
    if (value === undefined) continue;
    result[key] = undefined;
    result[`${BRIDGE_DEFERRED_ENV_PREFIX}${key}`] = value;
  }
  return result;
}
