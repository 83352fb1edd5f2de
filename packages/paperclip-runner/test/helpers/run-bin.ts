import { type SpawnOptions, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { childForTest } from "@paperclipai/test-support";
import type { StagedBin } from "./staged-bin.js";

export const BIN = fileURLToPath(new URL("../../bin/paperclip-runnerd.js", import.meta.url));
const BUILT = fileURLToPath(new URL("../../dist/runnerd-cli.cjs", import.meta.url));

export interface BinResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built `paperclip-runnerd` bin as a launcher would: its own process, argv, pipes. */
export function runBin(
  args: readonly string[],
  options: {
    nodeArgs?: readonly string[];
    env?: NodeJS.ProcessEnv;
    stdin?: string;
    /** Keep stdin open after `stdin` is written (a controller that is still there). */
    keepStdinOpen?: boolean;
    spawn?: SpawnOptions;
    /** A Node and bin another user can reach (see staged-bin.ts), instead of the checkout's. */
    staged?: StagedBin;
  } = {},
): Promise<BinResult> {
  if (!existsSync(BUILT))
    throw new Error("build the package first (pnpm build): dist/runnerd-cli.cjs is missing");
  return new Promise((resolve, reject) => {
    const node = options.staged?.node ?? process.execPath;
    const child = childForTest(() =>
      spawn(node, [...(options.nodeArgs ?? []), options.staged?.bin ?? BIN, ...args], {
        stdio: ["pipe", "pipe", "pipe"],
        env: options.env ?? process.env,
        ...options.spawn,
      }),
    );
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
    child.stdin?.on("error", () => undefined);
    if (options.keepStdinOpen) child.stdin?.write(options.stdin ?? "");
    else child.stdin?.end(options.stdin ?? "");
  });
}
