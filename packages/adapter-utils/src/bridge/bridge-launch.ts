import { executableReadPaths } from "../bwrap/executable-read-paths.js";
import { SANDBOX_PROXY_PORT } from "../bwrap/system-paths.js";
import {
  type BridgeChoice,
  chooseBridge,
  resolveBridgePreference,
  SANDBOX_BRIDGE_ENV,
} from "./bridge-choice.js";
import { nativeBridgePath } from "./native-bridge-path.js";
import { probeNativeBridgeOnce } from "./probe-native-bridge.js";
import { writeNetworkProxyBridge } from "./write-bridge.js";

/** The bridge a run with these options will use, and why (probing the native binary once per process). */
export async function selectBridge(networkBridge: unknown, env = process.env): Promise<BridgeChoice> {
  const resolved = resolveBridgePreference(networkBridge, env[SANDBOX_BRIDGE_ENV]);
  const probe = resolved.preference === "node" ? null : await probeNativeBridgeOnce(nativeBridgePath());
  return chooseBridge(resolved, probe);
}

/** What the sandbox must show read-only for the bridge to start: the binary, or Node's own paths. */
export function bridgeReadPaths(choice: BridgeChoice): string[] {
  return choice.kind === "native" && choice.nativePath
    ? [choice.nativePath]
    : executableReadPaths(process.execPath);
}

/**
 * The bridge's command and its arguments before the program's. Both keep the argv
 * contract callers rely on: the proxy socket is the third word after bwrap's `--`
 * (`node bridge.cjs <socket>` or `paperclip-sandbox-bridge 127.0.0.1:31337 <socket>`).
 */
export async function bridgeCommand(
  choice: BridgeChoice,
  runDir: string,
  socketPath: string,
): Promise<{ command: string; args: string[] }> {
  if (choice.kind === "native" && choice.nativePath) {
    return { command: choice.nativePath, args: [`127.0.0.1:${SANDBOX_PROXY_PORT}`, socketPath] };
  }
  return { command: process.execPath, args: [await writeNetworkProxyBridge(runDir), socketPath] };
}
