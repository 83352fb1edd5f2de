import { PROXY_ENV_KEYS, SANDBOX_PROXY_PORT } from "./system-paths.js";

/**
 * What `NO_PROXY` lists under the allowlist: the proxy itself. A program that does
 * its own proxying sends an absolute-form request to 127.0.0.1:31337; with
 * `NODE_USE_ENV_PROXY=1` and nothing exempt, Node 22 sends that request to the
 * proxy again with a rewritten target, and Node 24 refuses it
 * (`ERR_INVALID_ARG_VALUE`, the Host header does not match the proxy's authority).
 * Exempting exactly the bridge's address sends nothing around the proxy: the
 * sandbox has no network but loopback, where only the bridge and the program's
 * own servers listen.
 */
export const SANDBOX_NO_PROXY = `127.0.0.1:${SANDBOX_PROXY_PORT},localhost:${SANDBOX_PROXY_PORT}`;

/**
 * The env changes of a network scope: inherited proxy variables are removed (a
 * key with `undefined` means "delete"), `NO_PROXY` emptied under deny (upstream's
 * value) and under the allowlist set to the proxy's own address only, and every
 * proxy variable points at the bridge. `NODE_USE_ENV_PROXY=1` makes Node's own
 * `fetch`/`http` honour them where the Node version supports it (22.21+, 24+).
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
    env.NO_PROXY = SANDBOX_NO_PROXY;
    env.no_proxy = SANDBOX_NO_PROXY;
    env.NODE_USE_ENV_PROXY = "1";
  }
  return env;
}
