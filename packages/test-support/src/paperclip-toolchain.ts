import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const TOOLCHAIN_SCRIPT = fileURLToPath(new URL("../../../scripts/lib/toolchain-cache.sh", import.meta.url));

/**
 * Runs `scripts/lib/toolchain-cache.sh ARGS…` (it installs into its cache outside the
 * workspace the first time: npm, or Debian's archive for `upstream-runnerd`) and returns the
 * path it prints. `who` names the suite in the precondition message when that fails.
 */
export function toolchainCache(who: string, ...args: string[]): string {
  try {
    return execFileSync("bash", [TOOLCHAIN_SCRIPT, ...args], {
      encoding: "utf8",
      maxBuffer: 16 * 1024 * 1024,
      stdio: ["ignore", "pipe", "inherit"],
    }).trim();
  } catch {
    throw new Error(
      `precondition: ${who} need ${args.join(" ")} from the toolchain cache, installed once from the network (bash scripts/lib/toolchain-cache.sh ${args.join(" ")} failed)`,
    );
  }
}

/** The pinned Node 24 and @paperclipai/server, from the toolchain cache outside the workspace. */
export interface ServerToolchain {
  /** A Node 24 binary (the Paperclip server needs Node >= 24.11). */
  readonly node24: string;
  /** The directory whose `node_modules` holds `paperclipai@2026.916.1` and `@paperclipai/server`. */
  readonly serverDir: string;
}

/** Node 24 and @paperclipai/server@2026.916.1 from the toolchain cache (installed from npm the first time). */
export function serverToolchain(who: string): ServerToolchain {
  return { node24: toolchainCache(who, "node", "24"), serverDir: toolchainCache(who, "server") };
}
