import { PROXY_ENV_KEYS, SANDBOX_PROXY_PORT } from "./system-paths.js";

/**
 * The env changes of a network scope: inherited proxy variables are removed (a
 * key with `undefined` means "delete"), `NO_PROXY` emptied so nothing bypasses the
 * proxy, and under the allowlist every proxy variable points at the bridge.
 * `NODE_USE_ENV_PROXY=1` makes Node's own `fetch`/`http` honour them where the
 * Node version supports it (22.21+, 24+).
 */
export function buildSandboxEnv(
  networkScope: "deny" | "allowlist" | null,
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  if (!networkScope) return env;
  for (const key of PROXY_ENV_KEYS) env[key] = undefined;
  env.NO_PROXY = "";
  env.no_proxy = "";
  if (networkScope === "allowlist") {
    const proxyUrl = `http://127.0.0.1:${SANDBOX_PROXY_PORT}`;
    env.HTTP_PROXY = proxyUrl;
    env.HTTPS_PROXY = proxyUrl;
    env.http_proxy = proxyUrl;
    env.https_proxy = proxyUrl;
    env.NODE_USE_ENV_PROXY = "1";
  }
  return env;
}
