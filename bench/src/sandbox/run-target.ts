// Runs one program through a peer's sandbox (or directly) and times it.
import { spawn } from "node:child_process";
import type { LocalProcessSandboxOptions } from "@paperclipai/adapter-utils/local-process-sandbox";
import type { Build } from "./peers.js";

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Build, spawn and exit, cleanup included. */
  ms: number;
  /** Build, spawn and exit: the program has run; teardown not included. */
  untilExitMs: number;
}

/** Builds the target with `build`, spawns it, waits for exit, runs cleanup; `ms` covers all of it. */
export async function runTarget(
  build: Build | null,
  executable: string,
  args: string[],
  cwd: string,
  options: LocalProcessSandboxOptions,
): Promise<Run> {
  const started = performance.now();
  const target = build
    ? await build({ executable, args, cwd, options })
    : { command: executable, args, cwd, env: {} };
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...target.env }))
    if (value !== undefined) env[key] = value;
  const child = spawn(target.command, target.args, {
    cwd: target.cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", (exit) => resolve(exit)));
  const untilExitMs = performance.now() - started;
  await ("cleanup" in target ? target.cleanup?.() : undefined);
  return { code, stdout, stderr, ms: performance.now() - started, untilExitMs };
}
