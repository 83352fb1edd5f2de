import { writeFileSync } from "node:fs";
import path from "node:path";
import { executableReadPaths, type ProgramReadPaths } from "../bwrap/executable-read-paths.js";
import type { RealPath } from "../bwrap/resolve-bind-sources.js";
import { SANDBOX_PROXY_PORT } from "../bwrap/system-paths.js";
import {
  type BridgeChoice,
  chooseBridge,
  resolveBridgePreference,
  SANDBOX_BRIDGE_ENV,
} from "./bridge-choice.js";
import { execShimPath, NATIVE_BRIDGE_FILE_NAME, nativeBridgePath } from "./native-bridge-path.js";
import { EXEC_SHIM_KIND, probeNativeBridgeOnce } from "./probe-native-bridge.js";
import { writeNetworkProxyBridge } from "./write-bridge.js";

/** The bridge a run with these options will use, and why (probing the native binary once per process). */
export async function selectBridge(networkBridge: unknown, env = process.env): Promise<BridgeChoice> {
  const resolved = resolveBridgePreference(networkBridge, env[SANDBOX_BRIDGE_ENV]);
  const probe = resolved.preference === "node" ? null : await probeNativeBridgeOnce(nativeBridgePath());
  return chooseBridge(resolved, probe);
}

/**
 * What the sandbox must show read-only for the bridge to start: Node's own paths
 * for the Node bridge; nothing for the native one, which is bound into the run's
 * own directory (`bridgeCommand`), so no host path leads to it.
 */
export function bridgeReadPaths(choice: BridgeChoice, realPath?: RealPath): ProgramReadPaths | null {
  return choice.kind === "native" ? null : executableReadPaths(process.execPath, realPath);
}

/** The native bridge binary, or `null` when it cannot be used here (probed once per process). */
export async function usableNativeBinary(): Promise<string | null> {
  const probe = await probeNativeBridgeOnce(nativeBridgePath());
  return probe.status === "ok" ? probe.path : null;
}

/** The exec shim's private copy, or `null` when it cannot be used here (probed once per process). */
export async function usableExecShim(): Promise<string | null> {
  const probe = await probeNativeBridgeOnce(execShimPath(), EXEC_SHIM_KIND);
  return probe.status === "ok" ? probe.path : null;
}

/** Where the Node bridge's script is written, where the sandbox sees that directory, and the socket's path there. */
export interface BridgeLocation {
  readonly writeDir: string;
  readonly sandboxDir: string;
  readonly socketPath: string;
}

export interface BridgeCommand {
  readonly command: string;
  readonly args: string[];
  /** bwrap arguments that put the bridge where `command` names it; they follow the run directory's mount. */
  readonly mounts: string[];
}

/**
 * The bridge's command and its arguments before the program's. Both keep the argv
 * contract callers rely on: the proxy socket is the third word after bwrap's `--`
 * (`node <proxydir>/bridge.cjs <socket>` or `<proxydir>/paperclip-sandbox-bridge 127.0.0.1:31337 <socket>`).
 * The native binary is bound over an empty placeholder in the run's directory: the
 * bind keeps the flags of the binary's own filesystem, so a `noexec` temp directory
 * does not stop it, and the sandbox sees no path into the package.
 */
export async function bridgeCommand(choice: BridgeChoice, location: BridgeLocation): Promise<BridgeCommand> {
  if (choice.kind === "native" && choice.nativePath) {
    writeFileSync(path.join(location.writeDir, NATIVE_BRIDGE_FILE_NAME), "", { mode: 0o500 });
    const inSandbox = path.join(location.sandboxDir, NATIVE_BRIDGE_FILE_NAME);
    return {
      command: inSandbox,
      args: [`127.0.0.1:${SANDBOX_PROXY_PORT}`, location.socketPath],
      mounts: ["--ro-bind", choice.nativePath, inSandbox],
    };
  }
  const written = await writeNetworkProxyBridge(location.writeDir);
  return {
    command: process.execPath,
    args: [path.join(location.sandboxDir, path.basename(written)), location.socketPath],
    mounts: [],
  };
}
