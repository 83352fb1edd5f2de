import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const TOOLCHAIN_SCRIPT = fileURLToPath(new URL("../../../scripts/lib/toolchain-cache.sh", import.meta.url));

/** The pinned Node 24 and @paperclipai/server, from the toolchain cache outside the workspace. */
export interface ServerToolchain {
  readonly node24: string;
  readonly serverDir: string;
}

/**
 * Node 24 and @paperclipai/server@2026.916.1 from the toolchain cache (installed from npm the
 * first time). `who` names the suite in the precondition message when the install fails.
 */
export function serverToolchain(who: string): ServerToolchain {
  const read = (...args: string[]): string => {
    try {
      return execFileSync("bash", [TOOLCHAIN_SCRIPT, ...args], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      }).trim();
    } catch {
      throw new Error(
        `precondition: ${who} need Node 24 and @paperclipai/server@2026.916.1 from the npm registry (bash scripts/lib/toolchain-cache.sh ${args.join(" ")} failed)`,
      );
    }
  };
  return { node24: read("node", "24"), serverDir: read("server") };
}
