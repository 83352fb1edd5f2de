import type { LocalProcessSandboxOptions } from "../sandbox-options.js";
import { planSpawn } from "./plan-spawn.js";
import { inheritedStdioRoutes, relayStdio } from "./relay-stdio.js";
import { startChild } from "./start-child.js";
import { superviseRun } from "./supervise-run.js";
import { assertSupportedRunOptions } from "./unsupported-run-options.js";

export { DEFAULT_ON_LOG_STALL_MS, MAX_CAPTURE_BYTES } from "./supervise-run.js";

export interface RunChildProcessOptions {
  cwd: string;
  env: Record<string, string>;
  /** 0 disables the timeout. */
  timeoutSec: number;
  /** Time between SIGTERM and SIGKILL after a timeout (at least 1 s). */
  graceSec: number;
  /**
   * Called with each piece of output, decoded as UTF-8 across chunk boundaries, one
   * call at a time in order; the child's output is paused while a call is pending.
   * A throw or rejection goes to `onLogError` and delivery goes on. A call that has
   * not settled after `onLogStallMs` is abandoned (`ERR_SANDBOX_LOG_CALLBACK_STALLED`
   * to `onLogError`) and `onLog` is not called again for the run; output is still
   * captured and the run still ends with the child.
   */
  onLog: (stream: "stdout" | "stderr", chunk: string) => Promise<void>;
  /** How long one `onLog` call may stay unsettled (default 30 s). */
  onLogStallMs?: number;
  onLogError?: (error: unknown, runId: string, message: string) => void;
  onSpawn?: (meta: { pid: number; processGroupId: number | null; startedAt: string }) => Promise<void>;
  stdin?: string;
  localProcessSandbox?: LocalProcessSandboxOptions | null;
  /**
   * `"inherit"` connects the program to this process's stdin, stdout and stderr
   * (a terminal, for the CLI): nothing is captured and `onLog` is not called. A file,
   * directory or device among them (`< input.txt`, `> out.log`) reaches the program
   * through a pipe: its descriptor would let it reopen the host's file (`stdio-route.ts`).
   */
  stdio?: "pipe" | "inherit";
  /** Signals this process receives during the run that are passed on to the program (the CLI forwards SIGINT, SIGTERM, SIGHUP). */
  forwardSignals?: readonly NodeJS.Signals[];
  /**
   * Upstream's SSH remote execution: not implemented. Typed so upstream callers
   * compile; `null`/`undefined` runs locally, any other value throws
   * `ERR_SANDBOX_UNSUPPORTED_OPTION` before anything starts.
   */
  remoteExecution?: unknown;
  /** Upstream's terminal-result cleanup: not implemented; set, it throws `ERR_SANDBOX_UNSUPPORTED_OPTION`. */
  terminalResultCleanup?: unknown;
}

export interface RunProcessResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  pid: number | null;
  startedAt: string | null;
  finishedAt?: string | null;
  durationMs?: number | null;
  errorCode?: string | null;
}

/**
 * Upstream's `runChildProcess`, sandbox-aware: runs `command` (resolved on PATH) in
 * its own process group, optionally inside the local-process sandbox; streams
 * output to `onLog`; on timeout sends SIGTERM, then SIGKILL after `graceSec`; always
 * runs the sandbox cleanup. With a sandbox, bwrap's status stream tells a sandbox
 * that could not be set up (`ERR_SANDBOX_SETUP_FAILED`, with bwrap's stderr) from a
 * program that ran and failed. Upstream options it does not implement
 * (`remoteExecution`, `terminalResultCleanup`) are refused, not ignored.
 */
export async function runChildProcess(
  runId: string,
  command: string,
  args: string[],
  opts: RunChildProcessOptions,
): Promise<RunProcessResult> {
  assertSupportedRunOptions(opts);
  const plan = await planSpawn(command, args, opts);
  const routes = opts.stdio === "inherit" ? inheritedStdioRoutes() : undefined;
  const startedAt = Date.now();
  const child = await startChild(command, plan, opts, routes);
  const relayed = routes ? relayStdio(child, routes) : Promise.resolve();
  return superviseRun({ runId, command, opts, plan, child, startedAt, relayed });
}
