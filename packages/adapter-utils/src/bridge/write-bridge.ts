import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SandboxError } from "@paperclipai/errors";
import { ownPackageRoot } from "../package-root.js";

/** Upstream's name for the bridge in `<proxydir>`, kept: callers recognise the argv by it. */
export const BRIDGE_FILE_NAME = "bridge.cjs";

/** Where the build puts the Node bridge (tsup entry `src/bridge/node-bridge/main.ts`), from the package root. */
const NODE_BRIDGE_BUILD_FILE = path.join("dist", "node-bridge.cjs");

/** The built Node bridge in this package: `dist/node-bridge.cjs`, for `src/` under test and `dist/` alike. */
export function nodeBridgeBuildPath(): string {
  return path.join(ownPackageRoot() ?? ".", NODE_BRIDGE_BUILD_FILE);
}

let built: Buffer | undefined;

/** The built bridge's bytes; a missing file means a broken install, said as such. */
export function readNodeBridgeBuild(buildPath: string): Buffer {
  try {
    return readFileSync(buildPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    throw new SandboxError(
      "ERR_SANDBOX_NODE_BRIDGE_MISSING",
      `The sandbox's Node bridge is missing from this installation (${buildPath}); reinstall or rebuild @paperclipai/adapter-utils.`,
      { details: { path: buildPath } },
    );
  }
}

/**
 * Writes the bridge into the per-run directory, read+execute for the owner only. The
 * sandbox runs that copy, never the package's file (a network-only sandbox sees the
 * host tree, the package included, and may write to it). Read once per process.
 */
export async function writeNetworkProxyBridge(dir: string): Promise<string> {
  built ??= readNodeBridgeBuild(nodeBridgeBuildPath());
  const bridgePath = path.join(dir, BRIDGE_FILE_NAME);
  writeFileSync(bridgePath, built, { mode: 0o500 });
  return bridgePath;
}
