import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const TOOLCHAIN_SCRIPT = fileURLToPath(new URL("../../../scripts/lib/toolchain-cache.sh", import.meta.url));

/** Runs the repository's pinned-toolchain script (it installs into its cache on first use). */
function toolchain(...args: string[]): string {
  return execFileSync("bash", [TOOLCHAIN_SCRIPT, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
}

/** The pinned Node 24 that upstream's JavaScript needs. */
export function node24(): string {
  return toolchain("node", "24");
}

/** The `node_modules` holding the pinned `paperclipai` and `@paperclipai/server`. */
export function upstreamNodeModules(): string {
  return `${toolchain("server")}/node_modules`;
}

/** `dist/vendor/paperclip-runner` of the pinned `@paperclipai/server`. */
export function upstreamRunnerVendor(nodeModules: string): string {
  return `${nodeModules}/@paperclipai/server/dist/vendor/paperclip-runner`;
}
