import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The repository root (this package lives in `e2e/paperclip-host-e2e`). */
export const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");

/** The pinned Node 24 and the pinned `paperclipai` install, from the one toolchain cache. */
export interface Toolchain {
  /** A Node 24 binary (the Paperclip server needs Node >= 24.11). */
  readonly node24: string;
  /** The directory whose `node_modules` holds `paperclipai@2026.916.1`. */
  readonly serverDir: string;
}

/** Runs `scripts/lib/toolchain-cache.sh ARGS…` (installing once) and returns the path it prints. */
export async function toolchainCache(...args: string[]): Promise<string> {
  const script = path.join(REPO_ROOT, "scripts/lib/toolchain-cache.sh");
  const { stdout } = await run("bash", [script, ...args], { maxBuffer: 16 * 1024 * 1024 });
  const lines = stdout.trim().split("\n");
  const last = lines[lines.length - 1];
  if (!last) throw new Error(`toolchain-cache.sh ${args.join(" ")} printed nothing`);
  return last;
}

/** Installs (once) and locates the pinned toolchain through `scripts/lib/toolchain-cache.sh`. */
export async function resolveToolchain(): Promise<Toolchain> {
  const node24 = await toolchainCache("node", "24");
  const serverDir = await toolchainCache("server");
  return { node24, serverDir };
}
