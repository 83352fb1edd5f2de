import { type ChildProcess, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { BoundedByteTail } from "@paperclipai/internal";
import type { LocalProcessSandboxOptions } from "../sandbox-options.js";
import { LogDelivery } from "./log-delivery.js";
import { planSpawn, SECCOMP_FD, STATUS_FD } from "./plan-spawn.js";
import { courierFailure, setupFailure, spawnFailure } from "./spawn-failure.js";
import { assertSupportedRunOptions } from "./unsupported-run-options.js";

/** Output kept per stream: the last 4 MiB (bytes; upstream counts UTF-16 units). */
export const MAX_CAPTURE_BYTES = 4 * 1024 * 1024;
/** Default for `onLogStallMs`. */
export const DEFAULT_ON_LOG_STALL_MS = 30_000;

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
   * (a terminal, for the CLI): nothing is captured and `onLog` is not called.
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

function signalGroup(pid: number | null | undefined, signal: NodeJS.Signals): boolean {
  if (!pid || pid <= 0) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
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
  const onLogError =
    opts.onLogError ?? ((error, id, message) => console.warn({ err: error, runId: id }, message));
  assertSupportedRunOptions(opts);
  const plan = await planSpawn(command, args, opts);
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  let child: ChildProcess;
  try {
    child = spawn(plan.command, plan.args, {
      cwd: plan.cwd,
      env: plan.env,
      detached: true,
      shell: false,
      stdio: [
        ...(opts.stdio === "inherit"
          ? (["inherit", "inherit", "inherit"] as const)
          : ([opts.stdin != null ? "pipe" : "ignore", "pipe", "pipe"] as const)),
        plan.status ? "pipe" : "ignore",
        ...(plan.seccomp ? (["pipe"] as const) : []),
      ],
    });
    if (plan.seccomp) {
      const filter = child.stdio[SECCOMP_FD] as Writable;
      filter.on("error", () => {});
      filter.end(plan.seccomp);
    }
  } catch (error) {
    await plan.cleanup().catch(() => {});
    throw spawnFailure(command, opts.cwd, plan.env, error);
  }

  return new Promise<RunProcessResult>((resolve, reject) => {
    const captured = {
      stdout: new BoundedByteTail(MAX_CAPTURE_BYTES),
      stderr: new BoundedByteTail(MAX_CAPTURE_BYTES),
    };
    const logs = new LogDelivery({
      onLog: opts.onLog,
      report: (error, message) => onLogError(error, runId, message),
      stallMs: opts.onLogStallMs ?? DEFAULT_ON_LOG_STALL_MS,
    });
    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    const status = plan.status;
    const statusStream = child.stdio[STATUS_FD] as Readable | null | undefined;
    statusStream?.setEncoding("utf8");
    statusStream?.on("data", (chunk: string) => {
      status?.push(chunk);
      if (status?.status.childPid) plan.init.remember(status.status.childPid);
    });
    statusStream?.on("error", () => {});

    // The sandbox's own process group gets the polite signal, so the program (or
    // the bridge) can shut down cleanly; bwrap itself would just die and take the
    // sandbox with it. SIGKILL goes to both.
    const sendSignal = (signal: NodeJS.Signals) => {
      const sandboxed = signalGroup(status?.status.childPid, signal);
      if (!sandboxed || signal === "SIGKILL") {
        if (!signalGroup(child.pid, signal)) child.kill(signal);
      }
    };
    const forwarders = (opts.forwardSignals ?? []).map((signal) => {
      const forward = () => sendSignal(signal);
      process.on(signal, forward);
      return () => process.off(signal, forward);
    });
    const timeout =
      opts.timeoutSec > 0
        ? setTimeout(() => {
            timedOut = true;
            sendSignal("SIGTERM");
            killTimer = setTimeout(() => sendSignal("SIGKILL"), Math.max(1, opts.graceSec) * 1000);
          }, opts.timeoutSec * 1000)
        : undefined;

    const pump = (stream: "stdout" | "stderr", readable: Readable | null) => {
      if (!readable) return;
      // A character split across two reads reaches onLog whole, never as U+FFFD.
      const decoder = new StringDecoder("utf8");
      readable.on("data", (chunk: Buffer) => {
        captured[stream].push(chunk);
        const text = decoder.write(chunk);
        if (!text) return;
        readable.pause();
        void logs.deliver(stream, text).then(() => {
          if (!readable.destroyed) readable.resume();
        });
      });
      readable.on("end", () => {
        const rest = decoder.end();
        if (rest) void logs.deliver(stream, rest);
      });
    };
    pump("stdout", child.stdout);
    pump("stderr", child.stderr);

    const spawnPersisted =
      typeof child.pid === "number" && child.pid > 0 && opts.onSpawn
        ? opts
            .onSpawn({ pid: child.pid, processGroupId: child.pid, startedAt })
            .catch((error: unknown) => onLogError(error, runId, "failed to record child process metadata"))
        : Promise.resolve();
    const stdin = child.stdin;
    if (opts.stdin != null && stdin) {
      stdin.on("error", () => {});
      void spawnPersisted.finally(() => {
        if (!stdin.destroyed) stdin.end(opts.stdin);
      });
    }

    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      for (const remove of forwarders) remove();
      if (timeout) clearTimeout(timeout);
      if (killTimer) clearTimeout(killTimer);
      void logs
        .drained()
        .then(() => plan.cleanup())
        .catch((error: unknown) => onLogError(error, runId, "failed to clean up the sandbox"))
        .finally(settle);
    };

    child.on("error", (error) => finish(() => reject(spawnFailure(command, opts.cwd, plan.env, error))));
    // bwrap is gone: so is everything it started, whatever the program did (a process that
    // cleared its parent-death signal, a daemon holding the output pipes open).
    child.on("exit", () => void plan.killSandbox());
    child.on("close", (code, signal) => {
      status?.end();
      const stdout = captured.stdout.text();
      const stderr = captured.stderr.text();
      const setupFailed =
        status !== null && status.status.exitCode === null && !timedOut && signal === null && code !== 0;
      finish(() => {
        if (setupFailed) {
          reject(setupFailure(plan.bwrap ?? plan.command, code, stderr));
          return;
        }
        const courierUnreachable = courierFailure(status?.status.exitCode ?? code, stderr);
        if (courierUnreachable) {
          reject(courierUnreachable);
          return;
        }
        const finished = Date.now();
        resolve({
          exitCode: code,
          signal,
          timedOut,
          stdout,
          stderr,
          pid: child.pid ?? null,
          startedAt,
          finishedAt: new Date(finished).toISOString(),
          durationMs: finished - started,
        });
      });
    });
  });
}
