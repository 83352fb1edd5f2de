import type { ExecutableProviderKind } from "./provider-kind.js";

/** What every provider may inherit from the runner (upstream's process supervisor base keys). */
const BASE_KEYS = [
  "PATH",
  "PATHEXT",
  "SystemRoot",
  "WINDIR",
  "HOME",
  "USERPROFILE",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "TMPDIR",
  "TEMP",
  "TMP",
  "TZ",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "all_proxy",
  "RUST_BACKTRACE",
  "GH_TOKEN",
  "GITHUB_TOKEN",
  "GH_HOST",
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "GIT_COMMITTER_NAME",
  "GIT_COMMITTER_EMAIL",
];

const PROVIDER_KEYS: Readonly<Record<ExecutableProviderKind, readonly string[]>> = {
  codex: [
    "CODEX_HOME",
    "OPENAI_API_KEY",
    "CODEX_API_KEY",
    "PAPERCLIP_AI_PROVIDER_KEY",
    "PAPERCLIP_AGENT_KEY_ID",
    "PAPERCLIP_AGENT_PUBLIC_KEY",
    "PAPERCLIP_AGENT_PRIVATE_KEY",
    "PAPERCLIP_RUNNER_EXTERNAL_SANDBOX",
  ],
  opencode: [
    "OPENROUTER_API_KEY",
    "OPENAI_API_KEY",
    "PAPERCLIP_OPENCODE_PERMISSION_MODE",
    "PAPERCLIP_OPENCODE_RUNTIME_DIR",
    "PAPERCLIP_NATIVE_MCP_NAME",
    "PAPERCLIP_NATIVE_MCP_URL",
    "PAPERCLIP_RUNNER_INSTANCE_ID",
    "PAPERCLIP_RUN_ID",
    "PAPERCLIP_NORMALIZED_SESSION_ID",
  ],
};

/**
 * Pure: the provider's whole environment, built from nothing (upstream's
 * `env_clear()` then an allowlist): the base keys every provider gets, plus the
 * provider's own. The bootstrap ticket and everything else stay behind.
 */
export function providerEnvironment(
  kind: ExecutableProviderKind,
  parent: NodeJS.ProcessEnv,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_KEYS, ...PROVIDER_KEYS[kind]]) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}
