import { execFile } from "node:child_process";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** What a command printed; its output is in the error message when it fails. */
export interface CommandOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
}

/** Runs a command to the end; a failure carries the command line and the tail of its output. */
export async function run(
  command: string,
  args: readonly string[],
  options: CommandOptions = {},
): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      maxBuffer: 64 * 1024 * 1024,
      timeout: options.timeoutMs ?? 300_000,
      killSignal: "SIGKILL",
    });
    return stdout;
  } catch (error) {
    const failure = error as Error & { stdout?: string; stderr?: string };
    const output = `${failure.stdout ?? ""}\n${failure.stderr ?? ""}`.trim().slice(-6000);
    throw new Error(`${command} ${args.join(" ")} failed: ${failure.message.split("\n")[0]}\n${output}`);
  }
}

/** `npm ARGS…` with `env` (the registry's, when it talks to the loopback registry). */
export function npm(args: readonly string[], options: CommandOptions = {}): Promise<string> {
  return run("npm", ["--no-audit", "--no-fund", "--loglevel=error", ...args], options);
}
