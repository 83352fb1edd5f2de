import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The repository root (this package lives in `e2e/runner-codex-oracle`). */
export const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");

/** Our runner's bin, built by the workspace. */
export const OUR_RUNNER_BIN = path.join(REPO_ROOT, "packages/paperclip-runner/bin/paperclip-runnerd.js");

/** Everything the scenarios run, from the toolchain cache outside the work tree. */
export interface CodexToolchain {
  /** Node 24 (the server's engines). */
  readonly node24: string;
  /** The directory whose `node_modules` holds `paperclipai@2026.916.1`. */
  readonly serverDir: string;
  /** The real Codex CLI binary (`@openai/codex@0.156.1`, linux-x64). */
  readonly codex: string;
  /** A launcher for upstream's Rust paperclip-runnerd through Debian 13's loader. */
  readonly upstreamRunner: string;
}

async function cache(...args: string[]): Promise<string> {
  const script = path.join(REPO_ROOT, "scripts/lib/toolchain-cache.sh");
  try {
    const { stdout } = await run("bash", [script, ...args], { maxBuffer: 16 * 1024 * 1024 });
    const last = stdout.trim().split("\n").at(-1);
    if (last) return last;
  } catch {
    // reported below, with the command to run by hand
  }
  throw new Error(
    `precondition: the Codex oracle needs the npm registry and Debian's archive once (bash scripts/lib/toolchain-cache.sh ${args.join(" ")} failed)`,
  );
}

/** Installs (once) and locates the pinned toolchain through `scripts/lib/toolchain-cache.sh`. */
export async function resolveCodexToolchain(): Promise<CodexToolchain> {
  const node24 = await cache("node", "24");
  const serverDir = await cache("server");
  const codex = await cache("codex");
  const upstreamRunner = await cache("upstream-runnerd");
  return { node24, serverDir, codex, upstreamRunner };
}
