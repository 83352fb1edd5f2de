export { DEFAULT_PROXY_LIMITS, type SandboxNetworkProxyLimits } from "./limits.js";
export { buildNetworkPolicy, type NetworkPolicy } from "./network-policy.js";
export { parseLocalProcessNetworkAllowlist } from "./parse-allowlist.js";
export type { NetworkDecision } from "./proxy-context.js";
export { writeProxyError } from "./proxy-error.js";
export type { NetworkResolver, ResolvedAddress } from "./resolve-target.js";
export {
  type SandboxNetworkProxy,
  type SandboxNetworkProxyOptions,
  type SandboxNetworkProxyStats,
  startSandboxNetworkProxy,
} from "./server.js";
export { parseTrustedNetworkUrl, type TrustedNetworkTarget } from "./trusted-url.js";
