/**
 * `@paperclipai/adapter-utils/local-process-sandbox`: a drop-in superset of
 * upstream's module of the same name.
 */

export {
  type BridgeChoice,
  SANDBOX_BRIDGE_ENV,
  type SandboxBridgePreference,
} from "./bridge/bridge-choice.js";
export { selectBridge } from "./bridge/bridge-launch.js";
export { buildLocalProcessSandboxSpawnTarget } from "./build-spawn-target.js";
export { SANDBOX_PROXY_PORT } from "./bwrap/system-paths.js";
export { parseLocalProcessSandboxExtraPaths } from "./options/parse-extra-paths.js";
export {
  parseLocalProcessFilesystemScope,
  parseLocalProcessFilesystemWorkspaceAccess,
  parseLocalProcessNetworkScope,
} from "./options/parse-scopes.js";
export {
  DEFAULT_PROXY_LIMITS,
  type NetworkDecision,
  type NetworkResolver,
  parseLocalProcessNetworkAllowlist,
  parseTrustedNetworkUrl,
  type ResolvedAddress,
  type SandboxNetworkProxy,
  type SandboxNetworkProxyLimits,
  type SandboxNetworkProxyOptions,
  type SandboxNetworkProxyStats,
  startSandboxNetworkProxy,
  type TrustedNetworkTarget,
  writeProxyError,
} from "./proxy/index.js";
export type {
  LocalProcessFilesystemScope,
  LocalProcessNetworkScope,
  LocalProcessSandboxAccess,
  LocalProcessSandboxOptions,
  LocalProcessSandboxPath,
  LocalProcessSandboxPathAlias,
  LocalProcessSandboxSpawnInput,
  LocalProcessSandboxSpawnTarget,
} from "./sandbox-options.js";
export {
  MAX_CAPTURE_BYTES,
  type RunChildProcessOptions,
  type RunProcessResult,
  runChildProcess,
} from "./spawn/run-child-process.js";
export {
  type CreateNetworkProxyTempDirOptions,
  createNetworkProxyTempDir,
  type ProxyTempDirAttempt,
} from "./temp-dir/create-network-proxy-temp-dir.js";
export { assertUnixSocketPathLength, UNIX_SOCKET_PATH_MAX_BYTES } from "./temp-dir/socket-path-length.js";
export { sweepStaleProxyDirs } from "./temp-dir/sweep-stale-dirs.js";
export {
  defaultProxyTempDirCandidates,
  NETWORK_PROXY_TEMP_PREFIX,
  socketPathBytesUnder,
} from "./temp-dir/temp-dir-candidates.js";
