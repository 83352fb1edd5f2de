import { writeFileSync } from "node:fs";
import path from "node:path";
import { BRIDGE_SOURCE } from "./bridge-source.js";

export const BRIDGE_FILE_NAME = "bridge.cjs";

/** Writes the bridge into the per-run directory, read+execute for the owner only. */
export async function writeNetworkProxyBridge(dir: string): Promise<string> {
  const bridgePath = path.join(dir, BRIDGE_FILE_NAME);
  writeFileSync(bridgePath, BRIDGE_SOURCE, { mode: 0o500 });
  return bridgePath;
}
